//! Per-turn overhead of the agent loop without the model: a provider that answers at once, a
//! catalog of the bundled skills, one `load_skill` call per prompt. Run with
//! `cargo bench --bench agent_overhead`; prints the median and p99 per model call.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::json;
use skill_lsp::agent::approval::{Decision, Fixed};
use skill_lsp::agent::provider::{
    Block, BoxFuture, Provider, ProviderError, Request, Response, Sink, Usage,
};
use skill_lsp::agent::{Agent, Session};
use skill_lsp::workspace::loader::roots_for;
use skill_lsp::workspace::{Disk, Registry};

/// Answers every request at once: a `load_skill` call first, then text.
struct Instant0 {
    calls: Mutex<u64>,
}

impl Provider for Instant0 {
    fn name(&self) -> &str {
        "instant"
    }

    fn model(&self) -> &str {
        "instant"
    }

    fn endpoint(&self) -> &str {
        "instant"
    }

    fn send<'a>(
        &'a self,
        request: Request<'a>,
        _: Sink<'a>,
    ) -> BoxFuture<'a, Result<Response, ProviderError>> {
        let mut calls = self
            .calls
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *calls += 1;
        let content = if request.messages.last().is_some_and(|message| {
            message
                .content
                .iter()
                .any(|block| matches!(block, Block::Text { .. }))
        }) {
            vec![Block::ToolUse {
                id: format!("t{calls}"),
                name: "load_skill".into(),
                input: json!({"name": "code-review"}),
            }]
        } else {
            vec![Block::Text {
                text: "done".into(),
            }]
        };
        let stop = if matches!(content[0], Block::ToolUse { .. }) {
            "tool_use"
        } else {
            "end_turn"
        };
        Box::pin(async move {
            Ok(Response {
                content,
                stop_reason: stop.into(),
                usage: Usage::default(),
                cut_tool: None,
            })
        })
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registry = Registry::scan(&roots_for(root, &[]), &Disk);
    let agent = Agent {
        provider: Arc::new(Instant0 {
            calls: Mutex::new(0),
        }),
        workspace: root.to_path_buf(),
        registry,
        source: Arc::new(Disk),
        approver: Arc::new(Fixed(Decision::Deny)),
        // The loop's own overhead; the security pass a front end adds per loaded skill is the
        // one `check` runs, benchmarked by benches/bench.sh.
        gate: None,
        max_turns: 30,
        max_tokens: 4096,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut samples = Vec::new();
    runtime.block_on(async {
        for _ in 0..2_000 {
            let mut session = Session::new();
            let start = Instant::now();
            agent
                .run(&mut session, "review README.md", &mut |_| {})
                .await
                .expect("the fake never fails");
            // Two model calls per prompt: the load_skill step and the answer.
            samples.push(start.elapsed().as_secs_f64() * 1e6 / 2.0);
        }
    });
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q) as usize];
    println!(
        "agent loop overhead per model call (µs): p50 {:.1}, p99 {:.1}, max {:.1}",
        at(0.5),
        at(0.99),
        at(1.0)
    );
}
