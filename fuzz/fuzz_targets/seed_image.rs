//! Fuzz target: the seed image reader (`parts`/`render`/`validate` on an ISO or FAT image).
//! The first byte picks the layout: even, the rest is an ISO from sector 16 on (the 32 KiB
//! system area before it is zeros, so small inputs reach the volume descriptors and
//! directories); odd, the rest is the image itself (FAT, or whatever `sniff` makes of it).
#![no_main]

use cloudfold::seed::{ImageKind, SeedImage};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (image, kinds) = if mode % 2 == 0 {
        let mut img = vec![0u8; 32 * 1024];
        img.extend_from_slice(rest);
        (img, vec![ImageKind::Iso])
    } else {
        let sniffed = ImageKind::sniff(rest);
        (rest.to_vec(), sniffed.into_iter().chain([ImageKind::Iso, ImageKind::Fat]).collect())
    };
    for kind in kinds {
        if let Ok(mut seed) = SeedImage::open(Cursor::new(image.as_slice()), kind) {
            let names: Vec<String> = seed.files().iter().map(|f| f.name.clone()).collect();
            let _ = seed.label();
            for name in names {
                let _ = seed.read(&name, 1 << 20);
            }
        }
    }
});
