//! `portal-agent`: the gateway agent as a small binary of its own (docs/agent.md).

fn main() -> std::process::ExitCode {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build();
    match runtime {
        Ok(rt) => rt.block_on(agent::main(std::env::args().skip(1).collect())),
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
