//! Progress of one long conversion, and the way to stop it between parts.
//!
//! A caller that wants either runs the conversion inside [`observe`] with a hook; the
//! readers and the chunker call [`report`] between parts of their work (every few
//! dozen top-level blocks of a DOCX body, each DOCX story, each stage) and stop with
//! [`ConvertError::Stopped`] when the hook answers [`ControlFlow::Break`]. The hook
//! lives in a thread-local for the duration of [`observe`] (like the element budget of
//! `read::budget`), so the many part readers need no extra argument; outside
//! [`observe`], [`report`] does nothing. The output never depends on the hook.

use std::cell::RefCell;
use std::ops::ControlFlow;

use crate::error::ConvertError;

/// What a conversion is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the input into the document model; `done`/`total` in bytes of `part`.
    Parse,
    /// Cutting the model into chunks and counting their tokens; `done`/`total` in
    /// blocks of the document (top-level paragraphs, tables, header and note parts).
    Chunk,
}

impl Stage {
    /// `"parse"` or `"chunk"`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Parse => "parse",
            Stage::Chunk => "chunk",
        }
    }
}

/// One progress report.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    /// The stage.
    pub stage: Stage,
    /// The part being read (`word/document.xml`, `word/footnotes.xml`; the format's
    /// name for single-part inputs), empty while chunking.
    pub part: &'a str,
    /// Work done in this stage and part (units per [`Stage`]).
    pub done: u64,
    /// Work of this stage and part in all.
    pub total: u64,
}

/// A progress hook: [`ControlFlow::Break`] stops the conversion.
pub type Hook = Box<dyn FnMut(&Progress<'_>) -> ControlFlow<()>>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// Runs `f` with `hook` receiving the reports of the conversion `f` makes; the hook
/// that was there before (a conversion nested in a hook's caller) is restored after.
pub fn observe<T>(hook: Hook, f: impl FnOnce() -> T) -> T {
    let outer = HOOK.with(|h| h.borrow_mut().replace(hook));
    struct Restore(Option<Hook>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            HOOK.with(|h| *h.borrow_mut() = outer);
        }
    }
    let _restore = Restore(outer);
    f()
}

/// Reports progress to the hook of [`observe`], if any.
///
/// # Errors
/// [`ConvertError::Stopped`] when the hook answers [`ControlFlow::Break`].
pub(crate) fn report(stage: Stage, part: &str, done: u64, total: u64) -> Result<(), ConvertError> {
    // Taken out while it runs: a hook that converts another document (its own
    // `observe`) or reports again finds no hook borrowed.
    let Some(mut hook) = HOOK.with(|h| h.borrow_mut().take()) else {
        return Ok(());
    };
    let flow = hook(&Progress {
        stage,
        part,
        done,
        total,
    });
    HOOK.with(|h| {
        let mut slot = h.borrow_mut();
        if slot.is_none() {
            *slot = Some(hook);
        }
    });
    match flow {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(ConvertError::Stopped {
            stage: stage.name(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_reach_the_hook_and_a_break_stops() {
        let seen = std::rc::Rc::new(RefCell::new(Vec::new()));
        let log = seen.clone();
        let r = observe(
            Box::new(move |p: &Progress<'_>| {
                log.borrow_mut().push((p.stage, p.done));
                if p.done >= 2 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            }),
            || -> Result<(), ConvertError> {
                report(Stage::Parse, "a", 1, 3)?;
                report(Stage::Parse, "a", 2, 3)?;
                report(Stage::Parse, "a", 3, 3)
            },
        );
        assert_eq!(r.unwrap_err().code(), "aborted");
        assert_eq!(*seen.borrow(), vec![(Stage::Parse, 1), (Stage::Parse, 2)]);
        // Outside observe nothing is reported and nothing stops.
        assert!(report(Stage::Chunk, "", 5, 5).is_ok());
    }
}
