//! `SeedError`: why a seed could not be made or read.

/// A seed that cannot be made from its inputs, or an image that cannot be read as a seed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SeedError {
    /// `--network-config` is not what cloud-init accepts as network configuration.
    #[error("network-config: {0}")]
    NetworkConfig(String),
    /// `--meta-data` is not a YAML mapping, or an `--instance-id`/`--hostname` that cannot be written.
    #[error("meta-data: {0}")]
    MetaData(String),
    /// A file is too large for the image format (ISO 9660 single extent: under 4 GiB).
    #[error("{name}: {size} bytes is too large for a seed image")]
    TooLarge {
        /// The seed file.
        name: &'static str,
        /// Its size.
        size: usize,
    },
    /// The FAT library refused the image (an I/O error on the in-memory disk).
    #[error("FAT image: {0}")]
    Fat(std::io::Error),
    /// The input is not a seed image this reader understands, or is damaged.
    #[error("seed image: {0}")]
    Image(String),
    /// A file in the image is larger than the limit given to the reader.
    #[error("seed image: {name} is {size} bytes, over the limit of {limit} bytes")]
    Limit {
        /// The file.
        name: String,
        /// Its size in the image.
        size: u64,
        /// The limit.
        limit: u64,
    },
}
