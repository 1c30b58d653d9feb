// Grundy's small enhancements. Every page works without them.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // Copy buttons next to samples and instances, saying how it went in the page's language.
  const words = document.body.dataset;
  for (const button of document.querySelectorAll("button.copy[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const text = document.getElementById(button.dataset.copy)?.textContent ?? "";
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = words.copied ?? "Copied";
      } catch {
        button.textContent = words.copyByHand ?? "Select and copy";
      }
    });
  }
  follow(document.getElementById("live"));
});

// A submission page follows its judging over server-sent events: a row per test as it ends,
// then the verdict and score.
function follow(section) {
  if (!section || section.dataset.live !== "true" || !window.EventSource) return;
  const names = JSON.parse(document.getElementById("verdict-names")?.textContent ?? "{}");
  const label = (code) => names[code] ?? code;
  // Subtasks by their statement numbers, as the page names them.
  const groups = JSON.parse(document.getElementById("group-names")?.textContent ?? "{}");
  const testName = (test) => `${groups[test.group] ?? test.group} #${test.index}`;
  // Subtasks as the statement lists them, in the page's language.
  const subtaskWords = JSON.parse(document.getElementById("subtask-words")?.textContent ?? "{}");
  const subtaskLine = (s) => {
    const label = subtaskWords.labels?.[s.name];
    if (!label) return s.summary;
    let line = `${label}: ${s.score}/${s.points}`;
    if (s.failed_at != null) line += `, ${subtaskWords.failed_at} ${s.failed_at}`;
    else if (s.verdict === "skipped") line += `, ${subtaskWords.not_judged}`;
    return line;
  };
  const failed = document.getElementById("failed");
  const failedList = document.getElementById("failed-list");
  const template = document.getElementById("failed-template");
  const subtasks = document.getElementById("subtasks");
  const subtaskList = document.getElementById("subtask-list");
  const rows = document.getElementById("tests");
  const verdict = document.getElementById("verdict");
  const score = document.getElementById("score");
  const setVerdict = (code) => {
    verdict.textContent = label(code);
    verdict.className = "verdict v-" + code;
  };
  const cell = (text, className) => {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  };
  const source = new EventSource(`/api/v1/submissions/${section.dataset.submission}/events`);
  source.addEventListener("state", (event) => {
    // Sent first and whenever an attempt starts over: the tests follow from the beginning.
    const state = JSON.parse(event.data);
    setVerdict(state.status);
    // The place in the queue was the server's when the page was made; judging has begun.
    if (state.status !== "queued") document.getElementById("queue-place")?.remove();
    rows.replaceChildren();
    failedList?.replaceChildren();
    if (failed) failed.hidden = true;
    if (subtasks) subtasks.hidden = true;
    score.textContent = "";
    document.getElementById("compile").hidden = true;
  });
  source.addEventListener("test", (event) => {
    const test = JSON.parse(event.data);
    const row = document.createElement("tr");
    row.dataset.position = test.position;
    row.dataset.live = "true";
    row.className = "v-" + test.verdict;
    const name = cell(testName(test), "test");
    row.append(
      name,
      cell(label(test.verdict), "verdict"),
      cell(`${test.cpu_ms} ms`, "time"),
      cell(`${(test.memory_kib / 1024).toFixed(1)} MiB`, "memory"),
      cell(test.message ?? "", "message"),
    );
    rows.append(row);
    if (showData(test)) {
      // The row leads to its data, as on the finished page.
      const link = document.createElement("a");
      link.href = `#failed-${test.position}`;
      link.textContent = name.textContent;
      name.replaceChildren(link);
    }
  });
  // A failed test whose data may be seen: its input, expected answer and output below the table.
  const showData = (test) => {
    const parts = { "shown-input": test.input, "shown-expected": test.expected, "shown-output": test.output };
    if (!template || !failedList || Object.values(parts).every((p) => p == null)) return false;
    const article = template.content.firstElementChild.cloneNode(true);
    article.id = `failed-${test.position}`;
    article.dataset.position = test.position;
    article.querySelector(".failed-name").textContent = testName(test);
    const verdictLabel = article.querySelector(".verdict");
    verdictLabel.textContent = label(test.verdict);
    verdictLabel.classList.add("v-" + test.verdict);
    const message = article.querySelector(".failed-message");
    if (test.message) message.textContent = test.message; else message.remove();
    for (const [className, text] of Object.entries(parts)) {
      const pre = article.querySelector("." + className);
      if (text == null) pre.parentElement.remove(); else pre.textContent = text;
    }
    failedList.append(article);
    failed.hidden = false;
    return true;
  };
  source.addEventListener("error", () => {
    // The browser retries a dropped stream by itself; a refused one (signed out, gone) is closed
    // for good, and the page as the server renders it is the best there is.
    if (source.readyState === EventSource.CLOSED) setTimeout(() => location.reload(), 3000);
  });
  source.addEventListener("done", (event) => {
    const done = JSON.parse(event.data);
    setVerdict(done.verdict ?? "internal_error");
    score.textContent = done.max_score == null ? "" : `${done.score}/${done.max_score}`;
    if (done.compile_message) {
      document.getElementById("compile-message").textContent = done.compile_message;
      document.getElementById("compile").hidden = false;
    }
    if (subtaskList && done.subtasks?.length) {
      subtaskList.replaceChildren(...done.subtasks.map((s) => {
        const item = document.createElement("li");
        item.className = "v-" + s.verdict;
        item.textContent = subtaskLine(s);
        return item;
      }));
      subtasks.hidden = false;
    }
    // What the live rows do not carry (failing hidden tests' inputs) comes with the page.
    const reload = section.dataset.reloadWhenJudged === "true" && done.verdict !== "accepted";
    // A wrong answer's explanation follows when the server says one will: wait for it, a while.
    const explains = done.explains || document.getElementById("explanation")?.dataset.explains === "true";
    if (!reload && explains) {
      setTimeout(() => source.close(), 40000);
      return;
    }
    section.dataset.live = "false";
    source.close();
    if (reload) location.reload();
  });
  source.addEventListener("explanation", (event) => {
    const found = JSON.parse(event.data);
    const text = (id, value) => {
      document.getElementById(id).textContent = value ?? "";
    };
    text("explanation-position", found.position);
    text("explanation-expected", found.expected);
    text("explanation-got", found.got);
    // The certificate in the page's language (the stream gives both).
    const lang = document.documentElement.lang === "vi" ? "vi" : "en";
    text("explanation-why", found.certificate?.[lang]);
    document.getElementById("explanation-found").hidden = found.position == null;
    document.getElementById("explanation-nothing").hidden = found.position != null;
    const misconception = found.misconception;
    text("misconception-title", misconception?.title);
    text("misconception-text", misconception?.text);
    text("misconception-id", misconception?.id);
    document.getElementById("explanation-misconception").hidden = misconception == null;
    document.getElementById("explanation").hidden = false;
    section.dataset.live = "false";
    source.close();
  });
}

// Teachers and time zones (issue 18, items 2 and 6).
// Times the server wrote in UTC because the account names no zone are rewritten in the browser's
// zone (UTC stays on hover); a deadline form whose account names no zone starts in the browser's
// zone, its UTC values moved with it; the problem picker gets a search box and numbers itself.
document.addEventListener("DOMContentLoaded", () => {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const lang = document.documentElement.lang;
  for (const time of document.querySelectorAll('time[data-zone="browser"]')) {
    const text = zonedText(new Date(time.dateTime), lang, browserZone);
    if (text) time.textContent = text;
  }
  for (const select of document.querySelectorAll("select.zone-choice")) {
    const form = select.form;
    const names = () => {
      for (const name of form.querySelectorAll(".zone-name")) name.textContent = select.value;
    };
    if (select.hasAttribute("data-zone-guess") && browserZone && browserZone !== select.value) {
      // Browsers may name a zone by an older alias the list leaves out (Chromium says
      // Asia/Saigon for Asia/Ho_Chi_Minh); the server reads aliases too, so offer it as named.
      if (![...select.options].some((o) => o.value === browserZone)) {
        select.add(new Option(browserZone, browserZone), 1);
      }
      for (const input of form.querySelectorAll('input[type="datetime-local"]')) {
        if (input.value) input.value = localInput(new Date(`${input.value}:00Z`), browserZone);
      }
      select.value = browserZone;
      names();
    }
    select.addEventListener("change", names);
  }
  picker(document.querySelector(".problem-picker"));
});

// The parts of `date` as a clock in `timeZone` shows them, with its offset ("GMT+7").
function zonedParts(date, timeZone) {
  try {
    const format = new Intl.DateTimeFormat("en-GB", {
      timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit",
      minute: "2-digit", hourCycle: "h23", timeZoneName: "shortOffset",
    });
    return Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  } catch {
    return null;
  }
}

// The server's wording of a moment: "28/11/2026 05:49 (GMT+7)" or "28 Nov 2026, 05:49 (GMT+7)".
function zonedText(date, lang, timeZone) {
  const p = zonedParts(date, timeZone);
  if (!p || Number.isNaN(date.getTime())) return null;
  const zone = (p.timeZoneName ?? "").replace("-", "−");
  if (lang === "vi") return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute} (${zone})`;
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(p.day)} ${months[Number(p.month) - 1]} ${p.year}, ${p.hour}:${p.minute} (${zone})`;
}

// A `datetime-local` value for `date` in `timeZone`.
function localInput(date, timeZone) {
  const p = zonedParts(date, timeZone);
  return p ? `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}` : "";
}

// The assignment form's problems: a search that hides what does not match (ticked ones stay),
// and a place filled in when a problem is ticked (the next after the highest) or cleared.
function picker(fieldset) {
  if (!fieldset) return;
  const search = fieldset.querySelector(".picker-search");
  const rows = [...fieldset.querySelectorAll("li[data-search]")];
  search.hidden = false;
  search.addEventListener("input", () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const row of rows) {
      const ticked = row.querySelector('input[type="checkbox"]').checked;
      row.hidden = !ticked && !words.every((w) => row.dataset.search.includes(w));
    }
  });
  for (const row of rows) {
    const box = row.querySelector('input[type="checkbox"]');
    const place = row.querySelector('input[type="number"]');
    box.addEventListener("change", () => {
      if (!box.checked) {
        place.value = "";
        return;
      }
      if (place.value) return;
      const taken = rows
        .filter((r) => r.querySelector('input[type="checkbox"]').checked)
        .map((r) => Number(r.querySelector('input[type="number"]').value) || 0);
      place.value = String(Math.max(0, ...taken) + 1);
    });
  }
}
