//! An engine in a child process speaking the protocol on its stdin/stdout. Every answer has a
//! time limit; a crash, a hang, a line that is not the expected message or a wrong protocol
//! version is reported as a [`Fault`], the process is killed, and the next case starts a new one.
//!
//! The engine runs in a process group of its own, and the whole group is killed on a fault and
//! at the end, so that an engine started through a wrapper script leaves nothing running. Its
//! pipes are read as bytes with a size cap: a stdout line that is not UTF-8 or is longer than
//! [`MAX_LINE`] is a fault that says so, and stderr is drained to its end whatever it holds.

use super::protocol::*;
use super::Engine;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest line an engine may print on stdout (one protocol message), in bytes.
pub const MAX_LINE: usize = 1 << 20;
/// Of each stderr line, the bytes kept for a crash report (the rest is read and dropped).
const STDERR_LINE_KEPT: usize = 1024;
/// The stderr lines kept for a crash report (the last ones).
const STDERR_LINES_KEPT: usize = 12;

/// Why a line printed right after an answer is a fault of the request it answered.
const SECOND_LINE: &str = "a second line after the answer to this request (one request, one line)";

/// What the stdout reader passes on.
enum Out {
    /// A UTF-8 line without its line end; `more` when more output followed in the same read.
    Line { text: String, more: bool },
    /// A line that is not UTF-8 (shown lossily); `at` is the first bad byte's offset.
    NotUtf8 { shown: String, at: usize },
    /// More than [`MAX_LINE`] bytes without a line end (the start of it).
    TooLong { start: String },
}

/// Reads one line into `buf` without its `\n`, keeping at most `cap` bytes of it. `None` at the
/// end of input; `Some(true)` when the line was longer than `cap`: with `stop` the reading stops
/// there (an endless line is not waited for), otherwise the rest of the line is read and dropped.
fn read_capped(
    r: &mut impl BufRead,
    cap: usize,
    stop: bool,
    buf: &mut Vec<u8>,
) -> io::Result<Option<bool>> {
    buf.clear();
    let (mut over, mut any) = (false, false);
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(over));
        }
        any = true;
        let nl = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..nl.unwrap_or(chunk.len())];
        let room = cap.saturating_sub(buf.len());
        over |= part.len() > room;
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = nl.map_or(chunk.len(), |i| i + 1);
        r.consume(used);
        if nl.is_some() || over && stop {
            return Ok(Some(over));
        }
    }
}

/// Reads the engine's stdout line by line until it closes, an endless line, or nobody listens.
fn read_stdout(stdout: impl io::Read, tx: std::sync::mpsc::Sender<Out>) {
    let mut r = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        let out = match read_capped(&mut r, MAX_LINE, true, &mut buf) {
            Ok(None) | Err(_) => break,
            Ok(Some(true)) => Out::TooLong {
                start: String::from_utf8_lossy(&buf[..buf.len().min(200)]).into_owned(),
            },
            Ok(Some(false)) => {
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                // Output already read past this line was printed with it, before any request.
                let more = r.buffer().iter().any(|b| !b.is_ascii_whitespace());
                match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(text) => Out::Line { text, more },
                    Err(e) => Out::NotUtf8 {
                        at: e.utf8_error().valid_up_to(),
                        shown: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                    },
                }
            }
        };
        let last = matches!(out, Out::TooLong { .. });
        if tx.send(out).is_err() || last {
            break;
        }
    }
}

/// Drains the engine's stderr to its end (bytes, any encoding), keeping the last lines: a pipe
/// left undrained would block or break the engine.
fn drain_stderr(stderr: impl io::Read, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut r = BufReader::new(stderr);
    let mut buf = Vec::new();
    while let Ok(Some(over)) = read_capped(&mut r, STDERR_LINE_KEPT, false, &mut buf) {
        let mut l = String::from_utf8_lossy(&buf).into_owned();
        if over {
            l.push('…');
        }
        if let Ok(mut v) = tail.lock() {
            v.push_back(l);
            if v.len() > STDERR_LINES_KEPT {
                v.pop_front();
            }
        }
    }
}

/// Kills the child's whole process group (it was started as the leader of its own group).
#[cfg(unix)]
fn kill_group(child: &Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_: &Child) {}

/// Kills the engine and everything it started, and reaps it.
fn kill_all(child: &mut Child) {
    kill_group(child);
    let _ = child.kill();
    let _ = child.wait();
    if let Ok(pid) = i32::try_from(child.id()) {
        unregister_group(pid);
    }
}

/// Splits a command line into words: spaces separate, `'...'` and `"..."` quote, `\` escapes.
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut has = false;
    let mut chars = cmd.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => match chars.next() {
                Some(n) => cur.push(n),
                None => return Err("a trailing `\\`".into()),
            },
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                has = true;
            }
            (None, c) if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err("an unclosed quote".into());
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    if out.is_empty() {
        return Err("an empty command".into());
    }
    Ok(out)
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Out>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// A child process speaking `rbcheck-engine/2` or `/1`.
pub struct ProcessEngine {
    argv: Vec<String>,
    timeout: Duration,
    running: Option<Running>,
    hello: Option<Hello>,
    /// The id of the last case answered by the running process.
    last_id: Option<u64>,
    /// Processes started so far (1 + restarts).
    pub starts: usize,
    /// Consecutive failed starts (reset by a successful handshake).
    pub failed_starts: usize,
    /// The engine refused the v2 hello and took a v1 one: send it v1 hellos from now on.
    v1_hello: bool,
}

/// The program to start for an engine command's first word: as given, except a bare `rbcheck`
/// that is not on the `PATH`, which is this very program (so `--engine "rbcheck serve"`, the
/// model against itself, works wherever rbcheck was started from).
fn program(word: &str) -> std::path::PathBuf {
    let on_path = || {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(word).is_file()))
    };
    if word == "rbcheck" && !on_path() {
        if let Ok(me) = std::env::current_exe() {
            if me.file_stem().is_some_and(|s| s == "rbcheck") {
                return me;
            }
        }
    }
    word.into()
}

impl ProcessEngine {
    /// An engine run as `cmd` (split into words, not through a shell), with this time limit per
    /// answer. Nothing is started until the first hello or case.
    pub fn new(cmd: &str, timeout: Duration) -> Result<ProcessEngine, String> {
        Ok(ProcessEngine {
            argv: split_command(cmd)?,
            timeout,
            running: None,
            hello: None,
            last_id: None,
            starts: 0,
            failed_starts: 0,
            v1_hello: false,
        })
    }

    /// The command's words.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            kill_all(&mut r.child);
        }
    }

    /// What became of a process whose stdout closed.
    fn crashed(&mut self) -> Fault {
        let Some(mut r) = self.running.take() else {
            return Fault::Crash {
                status: "not running".into(),
                stderr: String::new(),
            };
        };
        let mut status = "its output closed".to_string();
        for _ in 0..50 {
            match r.child.try_wait() {
                Ok(Some(s)) => {
                    status = s.to_string();
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        kill_all(&mut r.child);
        std::thread::sleep(Duration::from_millis(20));
        let stderr = r
            .stderr
            .lock()
            .map(|v| v.iter().cloned().collect::<Vec<_>>().join("\n"))
            .unwrap_or_default();
        Fault::Crash { status, stderr }
    }

    /// Starts the engine and shakes hands; an engine that exits or answers something else than
    /// a hello to the v2 hello (an older v1 engine that checks the client's version) is started
    /// again with a v1 hello, and sent v1 hellos from then on. A slow start (a hang) is not
    /// retried: it says nothing of the version.
    fn start(&mut self) -> Result<(), Fault> {
        if self.v1_hello {
            return self.start_with(&ClientHello::v1());
        }
        match self.start_with(&ClientHello::new()) {
            Err(Fault::Crash { .. } | Fault::Garbage { .. }) => {
                self.start_with(&ClientHello::v1())?;
                self.v1_hello = true;
                Ok(())
            }
            r => r,
        }
    }

    fn start_with(&mut self, client: &ClientHello) -> Result<(), Fault> {
        self.kill();
        self.hello = None;
        self.last_id = None;
        self.starts += 1;
        let mut cmd = Command::new(program(&self.argv[0]));
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Fault::Spawn(format!("`{}`: {e}", self.argv.join(" "))))?;
        // Its group is its own, out of the terminal's reach: killed by us if we are interrupted.
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(child.id()) {
            register_group(pid);
        }
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let stdin = child.stdin.take().expect("piped stdin");
        let (tx, rx) = channel();
        std::thread::spawn(move || read_stdout(stdout, tx));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let t2 = tail.clone();
        std::thread::spawn(move || drain_stderr(stderr, t2));
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
            stderr: tail,
        });
        let hello = serde_json::to_string(client).expect("serializable");
        let line = self.exchange(&hello)?;
        match parse_hello(&line, client) {
            Ok(h) => {
                self.hello = Some(h);
                Ok(())
            }
            Err(f) => {
                self.kill();
                Err(f)
            }
        }
    }

    /// Sends one line and waits for one line back; a second line printed with the answer is a
    /// fault of this request (one request, one line).
    fn exchange(&mut self, msg: &str) -> Result<String, Fault> {
        let timeout = self.timeout;
        let Some(r) = self.running.as_mut() else {
            return Err(Fault::Crash {
                status: "not running".into(),
                stderr: String::new(),
            });
        };
        // Lines printed before the request are garbage: nothing was asked.
        if let Ok(out) = r.lines.try_recv() {
            let why = match self.last_id {
                Some(id) => {
                    format!("printed after the answer to case {id}, before the next request")
                }
                None => "printed before any request".into(),
            };
            return Err(self.bad_line(out, why));
        }
        let sent = r
            .stdin
            .write_all(msg.as_bytes())
            .and_then(|_| r.stdin.write_all(b"\n"))
            .and_then(|_| r.stdin.flush());
        if sent.is_err() {
            return Err(self.crashed());
        }
        match r.lines.recv_timeout(timeout) {
            Ok(Out::Line { text, more }) => {
                // Output read together with the answer is on its way: wait for it briefly.
                let second = match more {
                    true => r.lines.recv_timeout(Duration::from_millis(500)).ok(),
                    false => r.lines.try_recv().ok(),
                };
                match (second, more) {
                    (None, false) => Ok(text),
                    (Some(out), _) => Err(self.bad_line(out, SECOND_LINE.into())),
                    (None, true) => {
                        self.kill();
                        Err(Fault::Garbage {
                            line: short(&text),
                            why: SECOND_LINE.into(),
                        })
                    }
                }
            }
            Ok(out) => Err(self.bad_line(out, String::new())),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Fault::Hang {
                    seconds: timeout.as_secs_f64(),
                })
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// The fault for a line that cannot be the answer: `why` says when it came (if it matters);
    /// the line's bytes may say more. The process is killed.
    fn bad_line(&mut self, out: Out, why: String) -> Fault {
        self.kill();
        let join = |what: String| match why.is_empty() {
            true => what,
            false => format!("{why}; {what}"),
        };
        match out {
            Out::Line { text, .. } => Fault::Garbage {
                line: short(&text),
                why,
            },
            Out::NotUtf8 { shown, at } => Fault::Garbage {
                line: short(&shown),
                why: join(format!(
                    "not UTF-8 (byte {at} of the line is not valid UTF-8; messages are UTF-8 JSON)"
                )),
            },
            Out::TooLong { start } => Fault::Garbage {
                line: short(&start),
                why: join(format!(
                    "a line longer than 1 MiB ({MAX_LINE} bytes) without a line end; it was not read further"
                )),
            },
        }
    }

    fn ensure(&mut self) -> Result<(), Fault> {
        if self.running.is_some() && self.hello.is_some() {
            return Ok(());
        }
        match self.start() {
            Ok(()) => {
                self.failed_starts = 0;
                Ok(())
            }
            Err(f) => {
                self.failed_starts += 1;
                Err(f)
            }
        }
    }
}

impl Engine for ProcessEngine {
    fn hello(&mut self) -> Result<Hello, Fault> {
        self.ensure()?;
        Ok(self.hello.clone().expect("started"))
    }

    fn run(&mut self, req: &CaseRequest) -> Reply {
        if let Err(f) = self.ensure() {
            return Reply::Fault(f);
        }
        let msg = match serde_json::to_string(req) {
            Ok(m) => m,
            Err(e) => return Reply::Error(format!("cannot encode the request: {e}")),
        };
        let line = match self.exchange(&msg) {
            Ok(l) => l,
            Err(f) => return Reply::Fault(f),
        };
        match parse_reply(&line, req.id) {
            Ok(r) => {
                self.last_id = Some(req.id);
                r
            }
            Err(why) => {
                self.kill();
                Reply::Fault(Fault::Garbage {
                    line: short(&line),
                    why,
                })
            }
        }
    }
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.stdin.write_all(b"{\"type\":\"bye\"}\n");
            let _ = r.stdin.flush();
            drop(r.stdin);
            for _ in 0..20 {
                if let Ok(Some(_)) = r.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            // Whatever the engine started and left behind goes with it.
            kill_all(&mut r.child);
        }
    }
}

/// The process groups of the engines this process runs: an engine runs in a group of its own,
/// which the terminal's signal does not reach, so whoever handles SIGINT and SIGTERM (the
/// `rbcheck` command) kills them with [`kill_groups`].
static GROUPS: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

/// Registers an engine's process group, to be killed if this process is interrupted.
fn register_group(pgid: i32) {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(pgid);
}

/// Forgets an engine's process group (it was killed or has ended).
fn unregister_group(pgid: i32) {
    GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|g| *g != pgid);
}

/// Kills every engine process group still registered (for a signal handler's thread).
#[cfg(unix)]
pub fn kill_groups() {
    for g in GROUPS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::kill(-g, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{read_capped, split_command};

    #[test]
    fn lines_are_read_as_bytes_within_the_cap() {
        let mut buf = Vec::new();
        let mut r = std::io::BufReader::with_capacity(4, &b"ab\xff\nabcdefgh\nxy"[..]);
        assert_eq!(
            read_capped(&mut r, 5, false, &mut buf).unwrap(),
            Some(false)
        );
        assert_eq!(buf, b"ab\xff");
        // Too long and not stopped: the rest of the line is read and dropped.
        assert_eq!(read_capped(&mut r, 5, false, &mut buf).unwrap(), Some(true));
        assert_eq!(buf, b"abcde");
        assert_eq!(
            read_capped(&mut r, 5, false, &mut buf).unwrap(),
            Some(false)
        );
        assert_eq!(buf, b"xy");
        assert_eq!(read_capped(&mut r, 5, false, &mut buf).unwrap(), None);
        // Stopped: nothing past the cap is waited for.
        let mut endless = std::io::BufReader::new(std::io::repeat(b'x'));
        assert_eq!(
            read_capped(&mut endless, 1000, true, &mut buf).unwrap(),
            Some(true)
        );
        assert_eq!(buf.len(), 1000);
    }

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("python3 'my engine.py' --mutant \"a b\" x\\ y").unwrap(),
            vec!["python3", "my engine.py", "--mutant", "a b", "x y"]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
        assert_eq!(split_command("a ''").unwrap(), vec!["a", ""]);
    }
}
