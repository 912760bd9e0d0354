//! The standard `process_*` metrics of Prometheus client libraries, read
//! from `/proc` at scrape time (Linux; elsewhere they are left out).

use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;

/// The standard `process_*` metrics, read from `/proc` (Linux only).
#[derive(Debug)]
pub(super) struct ProcessCollector;

impl prometheus_client::collector::Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(p) = process_stats() else {
            return Ok(());
        };
        let m = encoder.encode_descriptor(
            "process_cpu_seconds",
            "User and system CPU time spent, in seconds",
            None,
            MetricType::Counter,
        )?;
        ConstCounter::new(p.cpu_seconds).encode(m)?;
        let gauges: [(&str, &str, f64); 5] = [
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                p.resident_bytes as f64,
            ),
            (
                "process_virtual_memory_bytes",
                "Virtual memory size in bytes",
                p.virtual_bytes as f64,
            ),
            (
                "process_open_fds",
                "Open file descriptors",
                p.open_fds as f64,
            ),
            (
                "process_max_fds",
                "The limit on open file descriptors",
                p.max_fds as f64,
            ),
            (
                "process_start_time_seconds",
                "Start time of the process since the Unix epoch, in seconds",
                p.start_time_seconds,
            ),
        ];
        for (name, help, value) in gauges {
            let m = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            ConstGauge::new(value).encode(m)?;
        }
        Ok(())
    }
}

/// One reading of the process's resources.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ProcessStats {
    cpu_seconds: f64,
    resident_bytes: u64,
    virtual_bytes: u64,
    open_fds: u64,
    max_fds: u64,
    start_time_seconds: f64,
}

#[cfg(target_os = "linux")]
fn process_stats() -> Option<ProcessStats> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    // Numbered as in proc(5): field 3 (state) is fields[0].
    let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    // SAFETY: sysconf and getrlimit only read process-wide values.
    let (ticks, page, max_fds) = unsafe {
        let mut limit = std::mem::zeroed::<libc::rlimit>();
        let max_fds = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur
        } else {
            0
        };
        (
            libc::sysconf(libc::_SC_CLK_TCK).max(1) as f64,
            libc::sysconf(libc::_SC_PAGESIZE).max(1) as u64,
            max_fds,
        )
    };
    let boot_time = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("btime ")?.trim().parse::<u64>().ok())?;
    let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count() as u64;
    Some(ProcessStats {
        cpu_seconds: (field(14)? + field(15)?) as f64 / ticks,
        resident_bytes: field(24)? * page,
        virtual_bytes: field(23)?,
        open_fds,
        max_fds,
        start_time_seconds: boot_time as f64 + field(22)? as f64 / ticks,
    })
}

#[cfg(not(target_os = "linux"))]
fn process_stats() -> Option<ProcessStats> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_process_reads_itself() {
        let p = process_stats().expect("/proc is readable");
        assert!(p.resident_bytes > 1 << 20, "{p:?}");
        assert!(p.virtual_bytes >= p.resident_bytes, "{p:?}");
        assert!(p.open_fds >= 3 && p.open_fds <= p.max_fds, "{p:?}");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64();
        assert!(
            p.start_time_seconds <= now + 1.0 && p.start_time_seconds > now - 86_400.0 * 365.0,
            "{p:?}"
        );
    }
}
