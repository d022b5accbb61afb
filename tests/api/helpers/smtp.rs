//! A real SMTP server for the mail tests: aiosmtpd (installed into `.venv` by
//! scripts/test.sh) on a loopback port, keeping what it receives in a Maildir
//! that Python's `mailbox` reads back.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/python");

pub struct Smtp {
    pub port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

/// One received mail, as a mail program would show it.
#[derive(Debug, serde::Deserialize)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub unsubscribe: String,
    pub unsubscribe_post: String,
    pub text: String,
    pub html: String,
}

impl Smtp {
    /// Starts the server on a free port and waits until it answers.
    pub async fn start() -> Self {
        assert!(
            std::path::Path::new(PYTHON).exists(),
            "aiosmtpd is not installed: run scripts/test.sh (it installs it into .venv)"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut smtp = Self {
            port,
            dir: tempfile::tempdir().expect("temp dir"),
            child: None,
        };
        smtp.run();
        smtp
    }

    fn maildir(&self) -> PathBuf {
        self.dir.path().join("mail")
    }

    fn run(&mut self) {
        let child = Command::new(PYTHON)
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{}", self.port))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(self.maildir())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting aiosmtpd");
        self.child = Some(child);
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("aiosmtpd did not start");
    }

    /// Stops the server (mail sent now fails), keeping what it received.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port.
    pub fn restart(&mut self) {
        self.stop();
        self.run();
    }

    /// Every mail received so far, oldest first.
    pub fn mails(&self) -> Vec<Mail> {
        let out = Command::new(PYTHON)
            .arg("-c")
            .arg(
                "import json, mailbox, sys\n\
                 box = mailbox.Maildir(sys.argv[1], create=True)\n\
                 out = []\n\
                 for key, m in sorted(box.items(), key=lambda km: km[1].get_date()):\n\
                 \x20   parts = {p.get_content_type(): p.get_payload(decode=True).decode() for p in m.walk() if not p.is_multipart()}\n\
                 \x20   out.append(dict(to=m['To'], subject=str(m['Subject']), unsubscribe=m['List-Unsubscribe'] or '',\n\
                 \x20       unsubscribe_post=m['List-Unsubscribe-Post'] or '', text=parts.get('text/plain', ''), html=parts.get('text/html', '')))\n\
                 print(json.dumps(out))",
            )
            .arg(self.maildir())
            .output()
            .expect("reading the Maildir");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("the mails as JSON")
    }
}

impl Drop for Smtp {
    fn drop(&mut self) {
        self.stop();
    }
}
