//! The PostgreSQL client tools the backup test drives (`pg_dump`, `pg_restore`, `psql`), and
//! the rows per table it compares.

use std::{collections::BTreeMap, process::Command, time::Duration};

use crate::common::Error;

pub fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a PostgreSQL client tool; answers its output, or an error with it.
pub fn pg(tool: &str, args: &[&str]) -> Result<String, Error> {
    let out = Command::new(tool).args(args).output()?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{tool} {args:?}: {err}").into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// Rows per table of `schema`.
pub fn row_counts(url: &str, schema: &str) -> Result<BTreeMap<String, i64>, Error> {
    let sql = format!(
        "SELECT table_name, (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c \
         FROM %I.%I', table_schema, table_name), false, true, '')))[1]::text \
         FROM information_schema.tables WHERE table_schema = '{schema}' \
         AND table_type = 'BASE TABLE' ORDER BY 1"
    );
    let out = pg(
        "psql",
        &[
            "-X",
            "-At",
            "-F",
            " ",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            url,
            "-c",
            &sql,
        ],
    )?;
    let mut counts = BTreeMap::new();
    for line in out.lines() {
        let (table, n) = line.split_once(' ').ok_or("bad psql line")?;
        counts.insert(table.to_string(), n.parse()?);
    }
    Ok(counts)
}

/// The rows per table once two reads three seconds apart agree.
pub async fn quiet_rows(base: &str, schema: &str) -> Result<BTreeMap<String, i64>, Error> {
    let mut last = row_counts(base, schema)?;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_secs(3)).await;
        let now = row_counts(base, schema)?;
        if now == last {
            return Ok(now);
        }
        last = now;
    }
    Err("the portal kept writing for a minute".into())
}
