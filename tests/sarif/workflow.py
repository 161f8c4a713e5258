#!/usr/bin/env python3
"""workflow.py GPULINT REPO: checks editors/github/gpulint.yml, the copyable GitHub workflow.

It parses the YAML (python3-yaml; exit 77 = skip when missing), checks the code-scanning job's
shape (security-events: write, checkout, the apt packages the build needs, the cmake build, the
gpulint step, github/codeql-action/upload-sarif@v3 with sarif_file and category) and then RUNS the
workflow's own gpulint command lines with the built binary over a copy of examples/ in a fresh git
repository: the SARIF step must exit 0 (--exit-zero) and write the file upload-sarif reads, with
automationDetails.id equal to the upload's category plus '/', and URIs relative to %SRCROOT%; the
annotate step must print only ::error / ::warning / ::notice workflow commands and exit 1.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("SKIP: python3-yaml is not installed (scripts/deps.sh installs it)")
    sys.exit(77)


def fail(msg):
    sys.exit("FAIL: " + msg)


def step_named(job, name):
    for step in job["steps"]:
        if step.get("name") == name:
            return step
    fail("no step named %r" % name)


def uses(job, action):
    return [s for s in job["steps"] if s.get("uses", "").startswith(action)]


def check_build(job):
    script = step_named(job, "Build gpulint")["run"]
    for pkg in ("cmake", "gcc", "g++", "pkg-config", "libcjson-dev", "libpcre2-dev", "libgit2-dev",
                "libtomlplusplus-dev"):
        if not re.search(r"apt-get install [^\n]*(?<![\w+-])%s(?![\w+-])" % re.escape(pkg), script):
            fail("the build step does not apt-get install %s" % pkg)
    for needed in ("cmake -S", "cmake --build", "cmake --install", "-DGL_TESTS=OFF"):
        if needed not in script:
            fail("the build step lacks %r" % needed)
    if not uses(job, "actions/checkout@"):
        fail("no actions/checkout step")


def gpulint_argv(step, gpulint):
    argv = shlex.split(step["run"])
    if argv[0] != "gpulint":
        fail("step %r does not run gpulint: %s" % (step.get("name"), step["run"]))
    return [gpulint] + argv[1:]


def main():
    gpulint, repo = os.path.abspath(sys.argv[1]), sys.argv[2]
    path = os.path.join(repo, "editors", "github", "gpulint.yml")
    with open(path) as f:
        wf = yaml.safe_load(f)
    triggers = wf.get("on", wf.get(True))  # YAML 1.1 reads the key `on` as true
    if "pull_request" not in triggers or "push" not in triggers:
        fail("the workflow must run on push and pull_request, got %r" % triggers)
    scan = wf["jobs"]["code-scanning"]
    if scan["permissions"].get("security-events") != "write":
        fail("code-scanning needs permissions: security-events: write")
    check_build(scan)
    upload = uses(scan, "github/codeql-action/upload-sarif@v3")
    if len(upload) != 1:
        fail("code-scanning must use github/codeql-action/upload-sarif@v3 once")
    sarif_file, category = upload[0]["with"]["sarif_file"], upload[0]["with"]["category"]
    run_argv = gpulint_argv(step_named(scan, "Run gpulint"), gpulint)
    for pair in (["--format", "sarif"], ["-o", sarif_file], ["--sarif-category", category]):
        if not any(run_argv[i:i + 2] == pair for i in range(len(run_argv))):
            fail("the gpulint step lacks %s" % " ".join(pair))
    if "--exit-zero" not in run_argv:
        fail("the gpulint step lacks --exit-zero")
    annotate = wf["jobs"]["annotate"]
    check_build(annotate)
    annotate_argv = gpulint_argv(step_named(annotate, "Annotate the pull request"), gpulint)
    if annotate_argv[1:3] != ["--format", "github"]:
        fail("the annotate step must run gpulint --format github")

    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "checkout")
        shutil.copytree(os.path.join(repo, "examples"), os.path.join(work, "examples"))
        subprocess.run(["git", "init", "-q", work], check=True)
        p = subprocess.run(run_argv, cwd=work, stderr=subprocess.PIPE)
        if p.returncode != 0:
            fail("the SARIF step exited %d: %s" % (p.returncode, p.stderr.decode()))
        with open(os.path.join(work, sarif_file)) as f:
            run = json.load(f)["runs"][0]
        want_id = category if category.endswith("/") else category + "/"
        if run.get("automationDetails", {}).get("id") != want_id:
            fail("automationDetails is %r, want id %r" % (run.get("automationDetails"), want_id))
        locs = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
        if not locs or any(l.get("uriBaseId") != "%SRCROOT%" or l["uri"].startswith("file:")
                           for l in locs):
            fail("results must have URIs relative to %%SRCROOT%%: %r" % locs[:3])
        p = subprocess.run(annotate_argv, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        lines = p.stdout.decode().splitlines()
        bad = [l for l in lines if not re.match(r"::(error|warning|notice) file=[^,]+,line=\d+,"
                                                r"col=\d+,endLine=\d+,endColumn=\d+,title=GPU\d+::", l)]
        if p.returncode != 1 or not lines or bad:
            fail("annotate step: exit %d, %d lines, not workflow commands: %r"
                 % (p.returncode, len(lines), bad[:3]))
    print("workflow: %d SARIF results (automationDetails.id %r), %d annotations"
          % (len(locs), want_id, len(lines)))


if __name__ == "__main__":
    main()
