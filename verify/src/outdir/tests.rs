//! The output folder: reading a signal byte, and nested or equal targets refused before anything is made.

use super::*;
use std::time::Duration;

/// Runs `wait_for_signal` on `fd` in a thread and gives its answer, or `Err` if it has not
/// returned within five seconds (the old loop never did: it spun at full CPU).
fn waited(fd: libc::c_int) -> Result<Option<u8>, ()> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(wait_for_signal(fd));
    });
    rx.recv_timeout(Duration::from_secs(5)).map_err(|_| ())
}

fn pipe() -> (libc::c_int, libc::c_int) {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    (fds[0], fds[1])
}

#[test]
fn the_signal_reader_returns_the_byte_and_gives_up_on_a_broken_pipe() {
    let (r, w) = pipe();
    // SAFETY: writes one byte from a live local to the pipe's write end.
    assert_eq!(unsafe { libc::write(w, (&15u8 as *const u8).cast(), 1) }, 1);
    assert_eq!(waited(r), Ok(Some(15)));
    // The write end closed: read returns 0 (end of file) at once, forever.
    // SAFETY: closes a descriptor this test owns.
    unsafe { libc::close(w) };
    assert_eq!(waited(r), Ok(None), "end of the pipe");
    // SAFETY: closes a descriptor this test owns.
    unsafe { libc::close(r) };
    // A descriptor that is not open: read fails with EBADF at once, forever. Not `r` again:
    // another test's thread may have been given its number since.
    assert_eq!(waited(-1), Ok(None), "a read that fails with EBADF");
}

/// Nested targets are compared before anything is made, whichever comes first.
#[test]
fn nested_and_equal_targets_are_refused_before_anything_is_made() {
    let d = std::env::temp_dir().join(format!("rbcheck-outdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let x = d.join("x");
    let xt = d.join("x/t");
    let xr = d.join("x/r.html");
    for targets in [
        [
            Target::folder("--cases", Some(&x)),
            Target::folder("--traces", Some(&xt)),
        ],
        [
            Target::folder("--traces", Some(&xt)),
            Target::folder("--cases", Some(&x)),
        ],
        [
            Target::folder("--keep", Some(&x)),
            Target::file("--html", Some(&xr)),
        ],
        [
            Target::file("--html", Some(&x)),
            Target::folder("--out", Some(&xt)),
        ],
    ] {
        let e = prepare(&targets).unwrap_err().to_string();
        assert!(e.contains("lies inside"), "{e}");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            0,
            "{e}: nothing made"
        );
    }
    let e = prepare(&[
        Target::folder("--out", Some(&x)),
        Target::file("--html", Some(&x)),
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("--out and --html name the same path"), "{e}");
    // Siblings under a parent that does not exist yet share it, and leave nothing behind.
    let a = d.join("new/a");
    let b = d.join("new/b");
    let o = prepare(&[
        Target::folder("--cases", Some(&a)),
        Target::folder("--traces", Some(&b)),
    ])
    .unwrap();
    assert!(d.join("new").is_dir());
    drop(o);
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "all removed again"
    );
    std::fs::remove_dir_all(&d).unwrap();
}
