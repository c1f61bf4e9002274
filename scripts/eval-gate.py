#!/usr/bin/env python3
"""The answer-quality gate of `make test`: fails when the eval's complete evidence
falls below a floor, its mean tokens per question exceed a ceiling, or the
extractive answers (no model) match or decline less often than their floors.

Usage: eval-gate.py SCORE_JSON --min-complete PCT --max-tokens N
                    [--min-collection PCT] [--min-kind PCT]
                    [--min-answers PCT] [--min-declines PCT]

SCORE_JSON is the score.json that ../shared/eval/run.py writes. The whole set is held
to --min-complete, each collection (`small`, `all`) to --min-collection, each kind of
question that has evidence to --min-kind; mean tokens are checked for all three. The eval's output is
deterministic (BM25, no model), so a change in these figures is a change in the
mechanism, never noise.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("score")
    ap.add_argument("--min-complete", type=float, required=True, help="percent of questions with complete evidence")
    ap.add_argument("--max-tokens", type=float, required=True, help="mean tokens sent per question")
    ap.add_argument("--min-collection", type=float, default=0.0, help="percent complete in each collection")
    ap.add_argument("--min-kind", type=float, default=0.0, help="percent complete in each kind of question")
    ap.add_argument("--min-answers", type=float, default=0.0,
                    help="percent of answerable questions whose extractive answer matches")
    ap.add_argument("--min-declines", type=float, default=0.0,
                    help="percent of negative questions whose extractive answer declines")
    a = ap.parse_args()
    with open(a.score, encoding="utf-8") as f:
        score = json.load(f)
    summary = score["summary"]
    rows = [("overall", summary["overall"], a.min_complete)]
    rows += [(n, s, a.min_collection) for n, s in sorted(summary["by_collection"].items())]
    rows += [(n, s, a.min_kind) for n, s in sorted(summary.get("by_kind", {}).items())]
    bad = []
    for name, s, floor in rows:
        complete = s.get("completeness")
        tokens = s["mean_tokens"]
        if complete is None:  # negatives: nothing to complete
            print("eval-gate: %-13s mean tokens %6.0f" % (name, tokens))
            continue
        complete *= 100.0
        print("eval-gate: %-13s complete evidence %5.1f%% (floor %.1f%%), mean tokens %6.0f"
              % (name, complete, floor, tokens))
        if complete < floor:
            bad.append("%s: complete evidence %.1f%% is below %.1f%%" % (name, complete, floor))
        if name in ("overall", "small", "all") and tokens > a.max_tokens:
            bad.append("%s: mean tokens %.0f exceed %.0f" % (name, tokens, a.max_tokens))
    answered = [r["answer_ok"] for r in score["rows"] if r["kind"] != "negative" and r["answer_ok"] is not None]
    declined = [r["answer_ok"] for r in score["rows"] if r["kind"] == "negative" and r["answer_ok"] is not None]
    for name, got, floor in (("answers", answered, a.min_answers), ("declines", declined, a.min_declines)):
        if floor <= 0:
            continue
        pct = 100.0 * sum(1 for x in got if x) / len(got) if got else 0.0
        print("eval-gate: %-13s %5.1f%% of %d (floor %.1f%%)" % (name, pct, len(got), floor))
        if pct < floor:
            bad.append("%s: %.1f%% is below %.1f%%" % (name, pct, floor))
    if bad:
        for b in bad:
            print("eval-gate: FAIL " + b, file=sys.stderr)
        sys.exit(1)
    print("eval-gate: ok")


if __name__ == "__main__":
    main()
