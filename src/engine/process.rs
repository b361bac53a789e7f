//! An engine in a child process speaking the protocol on its stdin/stdout. Every answer has a
//! time limit; a crash, a hang, a line that is not the expected message or a wrong protocol
//! version is reported as a [`Fault`], the process is killed, and the next case starts a new one.

use super::protocol::*;
use super::Engine;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// A child process speaking `rbcheck-engine/1`.
pub struct ProcessEngine {
    argv: Vec<String>,
    timeout: Duration,
    running: Option<Running>,
    hello: Option<Hello>,
    /// Processes started so far (1 + restarts).
    pub starts: usize,
    /// Consecutive failed starts (reset by a successful handshake).
    pub failed_starts: usize,
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
            starts: 0,
            failed_starts: 0,
        })
    }

    /// The command's words.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.child.kill();
            let _ = r.child.wait();
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
        let _ = r.child.kill();
        let _ = r.child.wait();
        std::thread::sleep(Duration::from_millis(20));
        let stderr = r
            .stderr
            .lock()
            .map(|v| v.iter().cloned().collect::<Vec<_>>().join("\n"))
            .unwrap_or_default();
        Fault::Crash { status, stderr }
    }

    fn start(&mut self) -> Result<(), Fault> {
        self.kill();
        self.hello = None;
        self.starts += 1;
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Fault::Spawn(format!("`{}`: {e}", self.argv.join(" "))))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let stdin = child.stdin.take().expect("piped stdin");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut line = String::new();
            loop {
                line.clear();
                match r.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let l = line.trim_end_matches(['\n', '\r']).to_string();
                        if l.trim().is_empty() {
                            continue;
                        }
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let t2 = tail.clone();
        std::thread::spawn(move || {
            let r = BufReader::new(stderr);
            for l in r.lines() {
                let Ok(l) = l else { break };
                if let Ok(mut v) = t2.lock() {
                    v.push_back(l);
                    if v.len() > 12 {
                        v.pop_front();
                    }
                }
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
            stderr: tail,
        });
        let hello = serde_json::to_string(&ClientHello::new()).expect("serializable");
        let line = self.exchange(&hello)?;
        let v: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                self.kill();
                return Err(Fault::Garbage {
                    line: short(&line),
                    why: format!("expected the hello, not JSON ({e})"),
                });
            }
        };
        if v.get("type").and_then(|t| t.as_str()) != Some("hello") {
            self.kill();
            return Err(Fault::Garbage {
                line: short(&line),
                why: "expected the engine's hello".into(),
            });
        }
        let proto = v
            .get("protocol")
            .and_then(|p| p.as_str())
            .unwrap_or("")
            .to_string();
        if proto != PROTOCOL {
            self.kill();
            return Err(Fault::WrongVersion { got: proto });
        }
        match serde_json::from_value::<Hello>(v) {
            Ok(h) => {
                self.hello = Some(h);
                Ok(())
            }
            Err(e) => {
                self.kill();
                Err(Fault::Garbage {
                    line: short(&line),
                    why: format!("a bad hello: {e}"),
                })
            }
        }
    }

    /// Sends one line and waits for one line back.
    fn exchange(&mut self, msg: &str) -> Result<String, Fault> {
        let timeout = self.timeout;
        let Some(r) = self.running.as_mut() else {
            return Err(Fault::Crash {
                status: "not running".into(),
                stderr: String::new(),
            });
        };
        // Lines printed before the request are garbage: nothing was asked.
        if let Ok(l) = r.lines.try_recv() {
            self.kill();
            return Err(Fault::Garbage {
                line: short(&l),
                why: "printed before any request".into(),
            });
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
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Fault::Hang {
                    seconds: timeout.as_secs_f64(),
                })
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
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

fn short(l: &str) -> String {
    let mut s: String = l.chars().take(160).collect();
    if s.len() < l.len() {
        s.push('…');
    }
    s
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
            Ok(r) => r,
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
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_command;

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
