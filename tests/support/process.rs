//! Running the built binary as a child process in tests.

use std::process::{Child, Command, Output};
use std::time::Duration;

/// Waits for a child with a generous deadline, reading its output as it comes (a report or a
/// list of what could not be read can fill a pipe and stall a child nobody reads): a hang is
/// the failure being guarded against.
pub fn finish(child: Child, what: &str) -> Output {
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(Duration::from_secs(120)) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{what} hung");
        }
    }
}
