//! What the tuning binaries in `src/bin` share: the thread's CPU clock they time puzzles with.
//!
//! Add here only what two or more tools need; each tool stays one file in `src/bin`.

/// The CPU time the calling thread has used, in milliseconds (unaffected by other processes'
/// load, unlike wall time).
pub fn thread_cpu_ms() -> f64 {
    thread_cpu().as_secs_f64() * 1000.0
}

/// The CPU time the calling thread has used (a clock for the logic's budgets).
pub fn thread_cpu() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    std::time::Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}
