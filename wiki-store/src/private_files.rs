//! Files and directories that hold a farm's data (the database and its logs, keys, backups) are
//! made readable by their owner alone: mode 0600, directories 0700, on Unix whatever the
//! umask. Elsewhere they get the platform's defaults.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::Path;

/// Creates `dir` and any missing parent (each new one 0700). An existing directory is left as
/// it is: its owner chose its mode.
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    let mut builder = DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the file `path`, which must not exist, empty and 0600, for writing.
pub fn create_new(path: &Path) -> io::Result<File> {
    options().create_new(true).open(path)
}

/// Opens `path` for appending, creating it 0600 when it does not exist (an existing file keeps
/// its mode).
pub fn append(path: &Path) -> io::Result<File> {
    options().create(true).append(true).open(path)
}

/// Creates `path` empty and 0600 unless it exists (an existing file is left untouched).
pub fn create_if_absent(path: &Path) -> io::Result<()> {
    match create_new(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(error),
    }
}

fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}
