//! `bench agent` in small (2 devices on a fast RS485 bus, 5 behind Modbus TCP, one poll each,
//! no process): the benchmark reads every block, and no poll beats the bus's physical limit
//! (a poll faster than the wire would mean the limit or the poll is mis-measured). The real
//! runs are by hand, in release (docs/performance.md).

use bench::agent::{AgentBenchOptions, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_agent_run_reads_every_block_within_the_wire_limit() -> anyhow::Result<()> {
    let o = AgentBenchOptions {
        rtu_devices: 2,
        baud: 115_200,
        tcp_devices: 5,
        polls: 1,
        agent_bin: None,
        process_devices: 1,
        process_seconds: 10.0,
    };
    let r = run(&o).await?;
    assert_eq!(r.rtu.devices, 2);
    assert_eq!(r.tcp.devices, 5);
    assert_eq!(r.rtu.failures + r.tcp.failures, 0, "blocks failed: {r:?}");
    assert!(r.rtu.wire_bytes > 0 && r.tcp.requests > 0);
    assert!(
        r.rtu.median() >= r.rtu_limit.mul_f64(0.95),
        "an RS485 poll took {:?}, under the wire's {:?}",
        r.rtu.median(),
        r.rtu_limit
    );
    assert_eq!(r.tcp_bare.len(), 1);
    Ok(())
}
