#!/usr/bin/env python3
"""make post RUN=...'s mail of a run of a user's patch, checked against
the run (tests/fast/own_patch.sh on a fixture, tests/boot/own_patch_boots.sh
on a real run): one PASS:/FAIL: line per check.

    tests/lib/runmail_check.py LABEL SERIES PATCH RUN CHECKOUT IDENTITY
        [--variant mine] [--baseline stock]

SERIES: the run's series/; PATCH: the patch file of the base's series
that the variant adds; RUN: the run's real directory; CHECKOUT: the
crngbench checkout whose plots/cells.py formats a cell; IDENTITY: the
sender, "Name <address>". Checked: the series is the cover letter and
one patch, that patch as [PATCH 1/1] with its own subject; every mail is
From the identity, the patch's Signed-off-by is the identity's once, no
placeholder identity anywhere; the patch mail carries the patch's diff;
each mail is plain text of one part (no attachment), lines of at most 80
columns; the cover letter quotes the variant's and the baseline's figures,
each summary.csv's cell (cells.fmt), every cell where they differ
(medians as shown apart and 95% CIs apart) among them (at least one: the
patch changed something), names
the run's real directory, and sets the variant against its baseline."""
import argparse
import email
import email.policy
import os
import re
import sys

ap = argparse.ArgumentParser()
for a in ("label", "series", "patch", "run", "checkout", "identity"):
    ap.add_argument(a)
ap.add_argument("--variant", default="mine")
ap.add_argument("--baseline", default="stock")
o = ap.parse_args()
sys.path.insert(0, os.path.join(o.checkout, "plots"))
from cells import fmt, summary_rows  # noqa: E402

v, b = o.variant, o.baseline


def check(ok, what):
    print(("PASS" if ok else "FAIL") + f": {o.label}: " + what)


with open(o.patch) as f:
    patch_text = f.read()
subject = re.search(r"^Subject: (?:\[[^]]*\] )?(.*)$", patch_text, re.M).group(1)
names = sorted(os.listdir(o.series))
one = names[-1] if len(names) == 2 and names[0] == "0000-cover-letter.patch" and names[1].startswith("0001-") else None
check(one is not None, f"the series is the cover letter and one patch: {names}")
mails = {n: open(os.path.join(o.series, n), encoding="utf-8").read() for n in names}
msgs = {n: email.message_from_string(t.split("\n", 1)[1], policy=email.policy.default) for n, t in mails.items()}
p1 = msgs.get(one)
check(p1 is not None and p1["Subject"] == f"[PATCH 1/1] {subject}",
      f"the patch is [PATCH 1/1] with its own subject: {p1 and p1['Subject']}")
froms = {n: str(m["From"]) for n, m in msgs.items()}
check(set(froms.values()) == {o.identity}, f"every mail is From the git identity: {froms}")
sob = re.findall(r"^Signed-off-by: .*$", mails.get(one, ""), re.M)
check(sob == [f"Signed-off-by: {o.identity}"], f"the patch's Signed-off-by is the identity's, once: {sob}")
check(not re.search(r"crngbench@|example\.invalid|localhost", "".join(mails.values())),
      "no placeholder identity in any mail")
diff = patch_text.split("\ndiff --git", 1)[1].split("\n-- \n")[0]
# its hunks (their line numbers aside: the mail's are the pristine file's)
hunks = [h.split("@@", 1)[1] for h in diff.split("\n@@ -")[1:]]
check(hunks and all(h in mails.get(one, "") for h in hunks), "the patch mail carries the patch's diff")
check(all(not m.is_multipart() and m.get_content_type() == "text/plain" and not m.get_filename()
          for m in msgs.values()), "no mail part is an attachment: plain text, one part")
wide = [l for t in mails.values() for l in t.splitlines() if len(l) > 80 and not l.startswith(("To:", "Cc:", "Message-Id"))]
check(not wide, f"every line of the mails is at most 80 columns: {wide[:2]}")

# the figures: every line under a condition is summary.csv's cell
cover = mails.get("0000-cover-letter.patch", "")
rows = summary_rows(o.run)
words = {"CRNG ready, ms from kernel start:": "crng_ready",
         "the first blocking /dev/urandom read's own duration, ms:": "first_urandom_latency",
         "kernel start to PID 1, ms:": "kernel_to_init"}
measure = cond = None
quoted, bad = 0, []
for line in cover.splitlines():
    if line in words:
        measure = words[line]
    elif measure and re.match(r"  \S", line) and not line.startswith(("  the other", "  every")):
        cond = line.strip()
    elif measure and cond and re.match(rf"    ({re.escape(b)}|{re.escape(v)}) ", line):
        name, fig = line.split(None, 1)
        accel, _, c = cond.partition(", ")
        r = [x for x in rows if x["measure"] == measure and x["variant"] == name and x["accel"] == accel.lower()
             and x["_cond"] == c]
        exp = (f"{fmt(r[0])}; n={r[0]['n']}" + (f" ({r[0]['censored']} censored)" if r[0]["censored"] != "0" else "")
               if len(r) == 1 else None)
        quoted += 1
        if fig != exp:
            bad.append((cond, name, fig, exp))
    elif not line.strip():
        cond = None
check(quoted >= 2 and not bad, f"the cover letter quotes {quoted} figures of {v} and {b}, each summary.csv's cell: {bad[:2]}")
apart = [r for r in rows if r["variant"] == v and r["measure"] in words.values() and r["n"] not in ("", "0")
         for x in [next((y for y in rows if y["variant"] == b and y["measure"] == r["measure"]
                         and y["accel"] == r["accel"] and y["_cond"] == r["_cond"]), None)]
         if x and x["n"] not in ("", "0") and fmt(r).split(" ")[0] != fmt(x).split(" ")[0]
         and (float(r["ci95_hi_ms"]) < float(x["ci95_lo_ms"]) or float(x["ci95_hi_ms"]) < float(r["ci95_lo_ms"]))]
check(apart and all(re.search(rf"^    {re.escape(v)} +{re.escape(fmt(r))};", cover, re.M) for r in apart),
      f"every cell where {v} and {b} differ (medians as shown apart, 95% CIs apart) is quoted ({len(apart)})")
check(f"The run: {os.path.basename(o.run)} " in cover and "latest" not in cover,
      "the cover letter names the run's real directory, not results/latest")
check(f"{v} is {b} with patch 1/1" in cover, f"the cover letter sets {v} against its baseline, {b}")
