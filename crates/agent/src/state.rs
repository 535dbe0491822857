//! What the portal tells the agent and what must survive a restart, kept in the state dir: the
//! registration key after a rotation (`key`), the upload cycle (`upload_cycle`) and whether
//! remote settings are allowed (`remote_settings`). Each is a small file written atomically.

use std::{io, path::PathBuf};

use crate::{buffer::write_atomic, config::Config};

#[derive(Debug, Clone)]
pub struct State {
    dir: PathBuf,
    pub key: String,
    pub upload_cycle: u32,
    pub remote_settings: bool,
}

fn read(dir: &std::path::Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name))
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

impl State {
    /// The state in `config.state_dir` (created when missing), the file's values where the
    /// portal has set nothing yet.
    pub fn load(config: &Config) -> io::Result<State> {
        let dir = config.state_dir.clone();
        std::fs::create_dir_all(&dir)?;
        let key = read(&dir, "key").unwrap_or_else(|| config.key.clone());
        let upload_cycle = read(&dir, "upload_cycle")
            .and_then(|t| t.parse::<u32>().ok())
            .filter(|c| crate::config::UPLOAD_CYCLE_RANGE.contains(c))
            .unwrap_or(config.upload_cycle);
        let remote_settings = read(&dir, "remote_settings").is_none_or(|t| t != "0");
        Ok(State {
            dir,
            key,
            upload_cycle,
            remote_settings,
        })
    }

    pub fn set_key(&mut self, key: &str) -> io::Result<()> {
        write_atomic(&self.dir.join("key"), key.as_bytes())?;
        self.key = key.to_string();
        Ok(())
    }

    pub fn set_upload_cycle(&mut self, seconds: u32) -> io::Result<()> {
        write_atomic(
            &self.dir.join("upload_cycle"),
            seconds.to_string().as_bytes(),
        )?;
        self.upload_cycle = seconds;
        Ok(())
    }

    pub fn set_remote_settings(&mut self, on: bool) -> io::Result<()> {
        write_atomic(
            &self.dir.join("remote_settings"),
            if on { b"1" } else { b"0" },
        )?;
        self.remote_settings = on;
        Ok(())
    }

    pub fn buffer_dir(&self) -> PathBuf {
        self.dir.join("buffer")
    }
}
