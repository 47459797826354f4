//! `anydoku play`: the HTTP JSON API, through the real binary over loopback TCP with a plain
//! HTTP/1.1 client written here (so headers such as a foreign Host can be sent as they are).
//! Every endpoint is asked a good question and checked against the independent checker or the
//! CLI; every kind of bad request gets a 4xx JSON error and the server answers the next request.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{bin, check_solution, root, run};
use serde_json::{json, Map, Value};

/// A running `anydoku play`, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(bin())
            .arg("play")
            .args(args)
            .args(["--port", "0"])
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start anydoku play");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    /// Sends one request; returns the status, the headers (lower-case names) and the body.
    fn raw(&self, head: &str, body: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let _ = s.write_all(head.as_bytes());
        let _ = s.write_all(body);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let (headers, body) = text.split_once("\r\n\r\n").expect("a response");
        let status = headers[9..12].parse().unwrap();
        let headers = headers.to_ascii_lowercase();
        let body = if headers.contains("transfer-encoding: chunked") {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, headers, body)
    }

    fn request(&self, method: &str, path: &str, extra: &str, body: &[u8]) -> (u16, String) {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        let (status, _, body) = self.raw(&head, body);
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.request("GET", path, "", b"");
        (status, serde_json::from_str(&body).expect("JSON"))
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, "", body.to_string().as_bytes());
        (status, serde_json::from_str(&text).expect("JSON"))
    }

    /// A good request right after a bad one is answered.
    fn still_serves(&self) {
        let (status, v) = self.get("/api/served");
        assert_eq!(status, 200, "{v}");
        assert!(v["id"].is_string());
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

fn solution_map(view: &Value, solution: &Value) -> Map<String, Value> {
    view["cells"]
        .as_array()
        .unwrap()
        .iter()
        .zip(solution.as_array().unwrap())
        .map(|(c, s)| (c.as_str().unwrap().to_string(), s.clone()))
        .collect()
}

#[test]
fn served_puzzle_is_drawn_with_one_cell_per_layout_cell_and_a_stable_id() {
    for file in [
        "puzzles/samurai.toml",
        "puzzles/tredoku.toml",
        "puzzles/killer.toml",
    ] {
        let server = Server::start(&[file]);
        let (status, view) = server.get("/api/served");
        assert_eq!(status, 200);
        let n = view["cells"].as_array().unwrap().len();
        let svg = view["svg"].as_str().unwrap();
        assert_eq!(svg.matches("data-cell=\"").count(), n, "{file}");
        assert_eq!(view["givens"].as_array().unwrap().len(), n);
        assert_eq!(view["status"], "unique", "{file}");
        // the id is the same after a restart (the page keys its saved game by it)
        let again = Server::start(&[file]);
        assert_eq!(again.get("/api/served").1["id"], view["id"], "{file}");
        // the model reads back as the same puzzle
        let (status, loaded) = server.post("/api/load", &json!({"puzzle": view["model"]}));
        assert_eq!(status, 200, "{loaded}");
        assert_eq!(loaded["id"], view["id"]);
    }
}

/// `play --geometry NAME GIVENS` serves those givens on that layout, as `solve` reads them.
#[test]
fn givens_on_a_named_layout_are_served() {
    let givens = "12.4..1.........";
    let server = Server::start(&["--geometry", "classic4", givens]);
    let (status, view) = server.get("/api/served");
    assert_eq!(status, 200);
    let shown: Vec<String> = view["givens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap_or(".").to_string())
        .collect();
    assert_eq!(shown.concat(), givens, "{view}");
    assert_ne!(view["status"], "unique", "{view}");
}

#[test]
fn solve_check_hint_and_export_answer_on_a_samurai() {
    let server = Server::start(&["puzzles/samurai.toml"]);
    let (_, view) = server.get("/api/served");
    let id = view["id"].clone();
    let (status, solved) = server.post("/api/solve", &json!({"puzzle": id}));
    assert_eq!(status, 200);
    assert_eq!(solved["status"], "unique");
    let sol = solution_map(&view, &solved["solution"]);
    check_solution(&view["model"], &sol).unwrap();

    // an empty cell, its right symbol and a wrong one
    let givens = view["givens"].as_array().unwrap();
    let cells = view["cells"].as_array().unwrap();
    let empty = (0..cells.len()).find(|&i| givens[i].is_null()).unwrap();
    let name = cells[empty].as_str().unwrap();
    let right = solved["solution"][empty].as_str().unwrap();
    let wrong = view["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .find(|&s| s != right)
        .unwrap();

    let (status, c) = server.post(
        "/api/check",
        &json!({"puzzle": id, "entries": {name: wrong}, "solution": true}),
    );
    assert_eq!(status, 200, "{c}");
    assert_eq!(c["wrong"], json!([empty]), "{c}");
    assert_eq!(c["solved"], false);
    let (_, c) = server.post(
        "/api/check",
        &json!({"puzzle": id, "entries": {name: right}, "solution": true}),
    );
    assert_eq!(c["wrong"], json!([]), "{c}");
    assert_eq!(c["conflicts"], json!([]), "{c}");
    // the whole solution entered: solved
    let entries: Map<String, Value> = sol
        .iter()
        .enumerate()
        .filter(|(i, _)| givens[*i].is_null())
        .map(|(_, (k, v))| (k.clone(), v.clone()))
        .collect();
    let (_, c) = server.post(
        "/api/check",
        &json!({"puzzle": id, "entries": entries.clone()}),
    );
    assert_eq!(
        (c["complete"].clone(), c["solved"].clone()),
        (json!(true), json!(true))
    );

    // a repeat of a given in the same row is a conflict naming both cells
    let row_given = (0..cells.len())
        .find(|&i| {
            givens[i].is_string() && {
                let (a, b) = (cells[i].as_str().unwrap(), name);
                a.split('c').next() == b.split('c').next()
            }
        })
        .expect("a given in the row");
    let (_, c) = server.post(
        "/api/check",
        &json!({"puzzle": id, "entries": {name: givens[row_given]}}),
    );
    let conflict_cells: Vec<u64> = c["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|x| {
            x["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
        })
        .collect();
    assert!(conflict_cells.contains(&(empty as u64)), "{c}");

    // a hint: its text is the CLI's, its cells are given by index
    let (status, h) = server.post("/api/hint", &json!({"puzzle": id}));
    assert_eq!(status, 200, "{h}");
    let (_, cli, _) = run(&["hint", "puzzles/samurai.toml"]);
    assert_eq!(h["step"]["text"].as_str().unwrap(), cli.trim());
    for c in h["cells"].as_array().unwrap() {
        let i = c.as_u64().unwrap() as usize;
        assert!(h["step"]["cells"].as_array().unwrap().contains(&cells[i]));
    }
    assert!(!h["shape_cells"].as_array().unwrap().is_empty());
    // with a wrong entry, the hint names it
    let (_, h) = server.post(
        "/api/hint",
        &json!({"puzzle": id, "entries": {name: wrong}}),
    );
    assert_eq!(h["wrong"], json!([empty]), "{h}");
    // with every entry, the grid is complete
    let (_, h) = server.post("/api/hint", &json!({"puzzle": id, "entries": entries}));
    assert_eq!(h["complete"], true);

    // the export reads back through the CLI: solve it, and hint with its entries
    let (status, model) = server.post(
        "/api/export",
        &json!({"puzzle": id, "entries": {name: right}}),
    );
    assert_eq!(status, 200);
    let text = model["source"]["entries"].as_str().unwrap().to_string();
    assert_eq!(text.chars().filter(|&c| c != '.').count(), 1, "{text}");
    let dir = common::scratch_dir();
    let file = dir.join("export.json");
    std::fs::write(&file, model.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let (code, out, err) = run(&["solve", f, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["solution"], Value::Object(sol.clone()));
    let (code, out, err) = run(&["hint", f, "--entries", &text]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains(&format!("→ {name} =")),
        "the entry counts: {out}"
    );
    let wrong_text: String = text
        .chars()
        .map(|c| {
            if c == '.' {
                '.'
            } else {
                wrong.chars().next().unwrap()
            }
        })
        .collect();
    let (code, _, err) = run(&["hint", f, "--entries", &wrong_text]);
    assert_eq!(code, 1, "a wrong entry read back is reported: {err}");
}

#[test]
fn generate_streams_progress_then_a_puzzle_that_the_api_knows() {
    let server = Server::start(&["classic6"]);
    for (body, killer) in [
        (json!({"geometry": "classic6", "seed": 7}), false),
        (
            json!({"geometry": "classic4", "killer": true, "seed": 3}),
            true,
        ),
        (
            json!({"geometry": "served", "difficulty": "easy", "seed": 1}),
            false,
        ),
    ] {
        let (status, text) =
            server.request("POST", "/api/generate", "", body.to_string().as_bytes());
        assert_eq!(status, 200, "{text}");
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let last = lines.last().unwrap();
        assert!(lines[..lines.len() - 1]
            .iter()
            .all(|l| l.get("progress").is_some()));
        let view = &last["puzzle"];
        assert_eq!(view["status"], "unique", "{last}");
        assert_eq!(view["seed"], body["seed"]);
        assert_eq!(
            view["svg"].as_str().unwrap().contains("class=\"cage\""),
            killer
        );
        let (status, solved) = server.post("/api/solve", &json!({"puzzle": view["id"]}));
        assert_eq!(status, 200);
        check_solution(&view["model"], &solution_map(view, &solved["solution"])).unwrap();
    }
    // the same seed gives the same puzzle
    let a = server.request(
        "POST",
        "/api/generate",
        "",
        br#"{"geometry":"classic4","seed":5}"#,
    );
    let b = server.request(
        "POST",
        "/api/generate",
        "",
        br#"{"geometry":"classic4","seed":5}"#,
    );
    let id = |t: &str| {
        serde_json::from_str::<Value>(t.lines().last().unwrap()).unwrap()["puzzle"]["id"].clone()
    };
    assert_eq!(id(&a.1), id(&b.1));
}

#[test]
fn a_generation_over_its_budget_is_stopped_and_frees_the_generator() {
    let server = Server::start(&["classic4"]);
    let started = std::time::Instant::now();
    // a minimal 25x25 takes minutes; this one has one second
    let (status, text) = server.request(
        "POST",
        "/api/generate",
        "",
        br#"{"geometry": "classic25", "timeout": 1, "seed": 1}"#,
    );
    assert_eq!(status, 200);
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert!(
        last["error"].as_str().unwrap().contains("time budget"),
        "{last}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // the generator is free again (the stopped job gave its permit back)
    std::thread::sleep(Duration::from_millis(500));
    let (status, text) =
        server.request("POST", "/api/generate", "", br#"{"geometry": "classic4"}"#);
    assert_eq!(status, 200, "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("{\"puzzle\""),
        "{text}"
    );
}

#[test]
fn bad_requests_get_4xx_json_and_the_server_keeps_serving() {
    let server = Server::start(&["puzzles/classic4.toml"]);
    let (_, view) = server.get("/api/served");
    let id = view["id"].clone();
    let empty = view["givens"]
        .as_array()
        .unwrap()
        .iter()
        .position(Value::is_null)
        .unwrap();
    let name = view["cells"][empty].as_str().unwrap();
    let big = vec![b' '; 2 << 20];
    // (what, path, extra headers, body, status, code)
    type Case<'a> = (&'a str, &'a str, String, Vec<u8>, u16, &'a str);
    let cases: Vec<Case> = vec![
        (
            "malformed JSON",
            "/api/check",
            String::new(),
            b"{\"puzzle\": ".to_vec(),
            400,
            "bad-json",
        ),
        (
            "not an object",
            "/api/hint",
            String::new(),
            b"[1, 2]".to_vec(),
            400,
            "bad-json",
        ),
        (
            "no puzzle",
            "/api/solve",
            String::new(),
            b"{}".to_vec(),
            400,
            "bad-request",
        ),
        (
            "unknown puzzle id",
            "/api/hint",
            String::new(),
            br#"{"puzzle": "0123456789abcdef"}"#.to_vec(),
            404,
            "unknown-puzzle",
        ),
        (
            "broken model",
            "/api/load",
            String::new(),
            br#"{"puzzle": {"cells": 3}}"#.to_vec(),
            400,
            "bad-request",
        ),
        (
            "unknown cell",
            "/api/check",
            String::new(),
            json!({"puzzle": id, "entries": {"r9c9": "1"}})
                .to_string()
                .into_bytes(),
            400,
            "bad-request",
        ),
        (
            "wrong symbol",
            "/api/hint",
            String::new(),
            json!({"puzzle": id, "entries": {name: "7"}})
                .to_string()
                .into_bytes(),
            400,
            "bad-request",
        ),
        (
            "entry not a string",
            "/api/check",
            String::new(),
            json!({"puzzle": id, "entries": {name: 1}})
                .to_string()
                .into_bytes(),
            400,
            "bad-request",
        ),
        (
            "oversize body",
            "/api/check",
            String::new(),
            big,
            413,
            "too-large",
        ),
        (
            "foreign Origin",
            "/api/solve",
            "Origin: http://evil.example\r\n".into(),
            json!({"puzzle": id}).to_string().into_bytes(),
            403,
            "foreign-origin",
        ),
        (
            "unknown geometry",
            "/api/generate",
            String::new(),
            br#"{"geometry": "nope"}"#.to_vec(),
            400,
            "bad-request",
        ),
        (
            "bad difficulty",
            "/api/generate",
            String::new(),
            br#"{"geometry": "classic4", "difficulty": "impossible"}"#.to_vec(),
            400,
            "bad-request",
        ),
        (
            "bad time budget",
            "/api/generate",
            String::new(),
            br#"{"geometry": "classic4", "timeout": -1}"#.to_vec(),
            400,
            "bad-request",
        ),
        (
            "unknown path",
            "/api/nothing",
            String::new(),
            b"{}".to_vec(),
            404,
            "not-found",
        ),
    ];
    for (what, path, extra, body, want, code) in cases {
        let (status, text) = server.request("POST", path, &extra, &body);
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
        assert_eq!(status, want, "{what}: {v}");
        assert_eq!(v["code"], code, "{what}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}");
        server.still_serves();
    }
    // a wrong method, and a foreign Host (DNS rebinding), on the page too
    let (status, text) = server.request("GET", "/api/check", "", b"");
    assert_eq!(status, 405, "{text}");
    server.still_serves();
    for path in ["/", "/api/served"] {
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
            server.port
        );
        let (status, _, body) = server.raw(&head, b"");
        assert_eq!(status, 403, "{body}");
        assert!(body.contains("foreign-host"), "{body}");
        server.still_serves();
    }
    let (status, _, body) = server.raw("GET / HTTP/1.0\r\n\r\n", b"");
    assert_eq!(status, 403, "no Host at all: {body}");
    // garbage instead of HTTP, then a closed connection mid-body
    let _ = server.raw("\x16\x03\x01 not http\r\n\r\n", b"");
    server.still_serves();
    {
        let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        let _ = s.write_all(
            format!(
                "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 1000\r\n\r\n{{",
                server.port
            )
            .as_bytes(),
        );
    }
    server.still_serves();
}

#[test]
fn the_page_and_its_files_are_served_with_safe_headers() {
    let server = Server::start(&["classic4"]);
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
            server.port
        );
        let (status, headers, body) = server.raw(&head, b"");
        assert_eq!(status, 200, "{path}");
        assert!(
            headers.contains(&format!("content-type: {kind}")),
            "{path}: {headers}"
        );
        assert!(headers.contains("x-frame-options: deny"), "{headers}");
        assert!(
            headers.contains("content-security-policy: default-src 'self'"),
            "{headers}"
        );
        assert!(!body.is_empty());
    }
    let (status, v) = server.get("/api/geometries");
    assert_eq!(status, 200);
    assert!(v["builtin"].as_array().unwrap().contains(&json!("samurai")));
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let (code, _, err) = run(&["play", "no-such-file.toml", "--port", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-file.toml"), "{err}");
    let (code, _, err) = run(&["play", "--geometry", "classic4", "--difficulty", "hardest"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown difficulty"), "{err}");
    // a port already taken is named, with the way out
    let server = Server::start(&["classic4"]);
    let port = server.port.to_string();
    let (code, _, err) = run(&["play", "classic4", "--port", &port]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "cannot listen on 127.0.0.1:{port}: another program uses that port"
        )),
        "{err}"
    );
}
