//! NoCloud seeds (`cloudfold seed`): the `user-data`, `meta-data`, `network-config` and
//! `vendor-data` files cloud-init's NoCloud datasource reads, as an ISO 9660 image (volume id
//! `cidata`, Joliet and Rock Ridge, as `cloud-localds` makes it), a FAT image (label `CIDATA`) or
//! a directory; and reading such images back (ours and other tools').
//!
//! Pure: files and options go in, bytes come out ([`make_seed`]); readers take any
//! `Read + Seek` ([`SeedImage`]). The CLI does the I/O.

mod civil_time;
mod fat_reader;
mod fat_writer;
mod iso_reader;
mod iso_writer;
mod meta_data;
mod network_config;
mod seed_builder;
mod seed_error;
mod seed_files;
mod seed_image;
mod seed_options;

pub use civil_time::DEFAULT_EPOCH;
internal! { use civil_time::CivilTime; }
internal! { use fat_reader::FatImage; }
internal! { use fat_writer::FAT_LABEL; }
internal! { use iso_reader::{ImageFile, IsoImage, IsoNames}; }
internal! { use iso_writer::VOLUME_ID; }
pub use meta_data::{MetaData, default_instance_id};
pub use network_config::NetworkConfig;
internal! { use network_config::NETWORK_DISABLED; }
pub use seed_builder::{Seed, make_seed};
pub use seed_error::SeedError;
pub use seed_files::{SEED_FILE_NAMES, SeedFiles, USER_DATA};
internal! { use seed_files::{META_DATA, NETWORK_CONFIG, VENDOR_DATA}; }
pub use seed_image::{ImageKind, SNIFF_LEN, SeedImage};
pub use seed_options::{SeedFormat, SeedOptions};
