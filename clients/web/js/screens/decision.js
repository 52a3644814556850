// One request as its decider sees it (GET /v1/holidays/{id}): the request, its history, the employee's balance
// in each year it draws on and their other requests of those years (all the server's), and who else is away on
// those days; then approve, reject with a reason, or revert, each one step (POST /v1/holidays/{id}/approve,
// reject, revert), sent with the version read (If-Match) and an Idempotency-Key. Only the moves the server
// lists in `allowedActions` are offered; it still refuses anything else.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get, newKey } from "../api.js";
import { formatDays, formatList } from "../format.js";
import { refreshScreen } from "../router.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, section, field, button, statusBadge, requestDates, leaveTypeName, fullName, balanceList, empty, requestSummary, requestHistory } from "../ui.js";
import { requestsNav, teamOf } from "../staff.js";

/**
 * The moves the caller may make on `request`: "Approve", "Reject" (which asks for the reason first, the one
 * move that cannot be undone) and "Revert". `onMoved(request)` gets the request as the server answers it.
 * `etag` sends If-Match; `note` adds a field for a note that goes with an approval or a revert.
 */
export function decisionControls(request, { etag = null, note = false, describedBy = null, onMoved }) {
  const allowed = request.allowedActions;
  const box = h("div", { class: "decide" });
  if (!allowed.some((a) => a === "approve" || a === "reject" || a === "revert")) return box;
  const message = h("p", { class: "field-error", role: "alert", hidden: true });
  const noteField = note ? field({ label: t("decide.note"), name: "note", multiline: true, maxlength: 1000, hint: t("decide.noteHint") }) : null;
  const buttons = [];

  const send = async (action, body, trigger) => {
    message.hidden = true;
    for (const b of buttons) b.disabled = true;
    try {
      const headers = { "Idempotency-Key": newKey() };
      if (etag) headers["If-Match"] = etag;
      const { data } = await api("POST", `/v1/holidays/${request.id}/${action}`, { body, headers });
      // The answer to a move may leave out who asked: it is the same employee.
      onMoved({ ...data, employee: data.employee || request.employee });
    } catch (error) {
      for (const b of buttons) b.disabled = false;
      if (error.status === 401) return;
      message.textContent = problemMessage(error, "decide");
      message.hidden = false;
      trigger?.focus();
    }
  };
  const noteBody = () => {
    const text = noteField?.control.value.trim();
    return text ? { note: text } : undefined;
  };

  const row = h("div", { class: "actions" });
  if (allowed.includes("approve")) {
    const approve = button(t("decide.approve"), () => send("approve", noteBody(), approve), { kind: "primary", "aria-describedby": describedBy });
    buttons.push(approve);
    row.append(approve);
  }
  let rejectBox = null;
  if (allowed.includes("reject")) {
    const reason = field({ label: t("decide.reason"), name: "reason", multiline: true, maxlength: 1000, hint: t("decide.reasonHint") });
    const close = () => {
      rejectBox.hidden = true;
      reject.setAttribute("aria-expanded", "false");
      reason.setError(null);
      reject.focus();
    };
    const sendReject = button(t("decide.sendRejection"), () => {
      const text = reason.control.value.trim();
      if (!text) {
        reason.setError(t("decide.reasonRequired"));
        reason.control.focus();
        return;
      }
      reason.setError(null);
      send("reject", { reason: text }, sendReject);
    }, { kind: "danger" });
    buttons.push(sendReject);
    rejectBox = h("div", { class: "confirm reject-box", hidden: true, onkeydown: (event) => event.key === "Escape" && close() },
      h("p", {}, t("decide.rejectQuestion")), reason,
      h("div", { class: "actions" }, sendReject, button(t("decide.keep"), close)));
    const reject = button(t("decide.reject"), () => {
      const opening = rejectBox.hidden;
      rejectBox.hidden = !opening;
      reject.setAttribute("aria-expanded", String(opening));
      if (opening) reason.control.focus();
    }, { kind: "danger", "aria-expanded": "false", "aria-describedby": describedBy });
    buttons.push(reject);
    row.append(reject);
  }
  if (allowed.includes("revert")) {
    const revert = button(t("decide.revert"), () => send("revert", noteBody(), revert), { "aria-describedby": describedBy });
    buttons.push(revert);
    row.append(revert);
  }
  append(box, noteField && (allowed.includes("approve") || allowed.includes("revert")) ? noteField : null, row, rejectBox, message);
  return box;
}

// The statuses in which a request is counted in its employee's balance (as pending or as approved).
const counted = ["pending", "approved-by-manager", "approved"];

/** The years a request touches, as the server counted them ("2026", "2027"). */
function yearsOf(request) {
  return Object.keys(request.workingDaysByYear).map(Number).sort();
}

/**
 * Who else of the requester's team is away on the request's days. The team is the requester's own
 * (GET /v1/teams?member=, which the server answers an admin and the requester's approver or their substitute).
 * An admin reads its absences (GET /v1/absences?team=, which shows a private leave type only as "away", and
 * pending requests too); an approver, to whom the server shows only approved absences there, reads the team's
 * requests of the years concerned (GET /v1/holidays?team=&year=) and keeps those sharing a day, a private leave
 * type again shown only as "away". A few pages at most: one team's people.
 */
/** Each item of up to five pages of 200 from `path` (a query already begun), following `nextAfter`. */
async function eachPage(path, each) {
  let after = null;
  for (let pages = 0; pages < 5; pages += 1) {
    const { data } = await get(`${path}&limit=200${after ? `&after=${after}` : ""}`);
    data.items.forEach(each);
    after = data.nextAfter;
    if (!after) break;
  }
}

async function awayAlongside(request, context) {
  const overlaps = (a) => a.startDate <= request.endDate && a.endDate >= request.startDate;
  const rows = [];
  const team = await teamOf(request.employeeId);
  if (!team) return section(t("decide.away"), empty(t("decide.noTeam")));
  const scope = t("decide.awayInTeam", { team: team.name });
  if (context.roles.admin) {
    await eachPage(`/v1/absences?from=${request.startDate}&to=${request.endDate}&team=${team.id}`, (row) => {
      if (row.employee.id === request.employeeId) return;
      for (const a of row.absences) rows.push({ person: row.employee, ...a, kind: a.status === "confirmed" ? "approved" : "pending", type: a.leaveType });
    });
  } else {
    const { data: types } = await get("/v1/leave-types");
    const hidden = new Set(types.filter((x) => x.private).map((x) => x.id));
    for (const year of yearsOf(request)) {
      await eachPage(`/v1/holidays?team=${team.id}&year=${year}`, (r) => {
        if (r.id === request.id || r.employeeId === request.employeeId || !overlaps(r)) return;
        if (!counted.includes(r.status) || rows.some((x) => x.id === r.id)) return;
        rows.push({ person: r.employee, ...r, kind: r.status === "approved" ? "approved" : "pending", type: hidden.has(r.leaveTypeId) ? null : r.leaveTypeName });
      });
    }
  }
  return section(t("decide.away"),
    h("p", { class: "muted" }, scope),
    rows.length
      ? h("ul", { class: "plain away-list" }, rows.map((a) => h("li", {},
        h("strong", {}, fullName(a.person)), ` · ${requestDates(a)} · ${a.type ? leaveTypeName(a.type) : t("absence.away")} · `,
        h("span", { class: a.kind === "approved" ? "tag tag-ok" : "tag" }, t(`decide.awayKind.${a.kind}`)))))
      : empty(t("decide.nobodyAway")));
}

/**
 * The year's remaining days before the request and after it is approved. The server's `remaining` already holds
 * a request it counts; without it, its days of that year are added back (carried days it would have used may
 * instead expire, which only the server's count of a changed request would show). Nothing for a request that
 * no longer counts.
 */
function beforeAndAfter(request, balance) {
  const days = request.workingDaysByYear[String(balance.year)];
  if (!counted.includes(request.status) || days === undefined) return null;
  const row = (label, value) => [h("dt", {}, label), h("dd", {}, value)];
  return h("dl", { class: "balance before-after" },
    row(t("decide.before"), formatDays(balance.remaining + days)),
    row(t("decide.thisRequest"), formatDays(-days)),
    h("div", { class: "balance-total" }, row(request.status === "approved" ? t("decide.afterApproved") : t("decide.after"), formatDays(balance.remaining))));
}

export default {
  async render(view, params, query, context) {
    const { data: request, etag } = await get(`/v1/holidays/${encodeURIComponent(params.id)}`);
    const details = requestSummary(request, (row) => row(t("decide.employee"),
      h("a", { href: `/people/${request.employee.id}` }, fullName(request.employee)), h("span", { class: "muted" }, ` · ${request.employee.username}`)));

    const controls = decisionControls(request, {
      etag, note: true,
      onMoved: (moved) => {
        announce(t(`decide.moved.${moved.status}`, { who: fullName(moved.employee) }));
        refreshScreen({ focus: true });
      },
    });
    const decision = controls.childElementCount
      ? section(t("decide.decision"), controls)
      : section(t("decide.decision"), h("p", { class: "muted" }, t("decide.nothingToDo")));

    const balances = section(t("decide.balance", { name: request.employee.name }),
      request.balances.length
        ? [h("p", { class: "muted" }, t(`decide.balanceNote.${request.status}`)),
          request.balances.map((b) => h("div", { class: "balance-year" }, h("h3", {}, String(b.year)), beforeAndAfter(request, b), balanceList(b)))]
        : h("p", { class: "muted" }, t("decide.noBalance")));

    const others = section(t("decide.others", { years: formatList(yearsOf(request).map(String)) }),
      request.otherRequests.length
        ? h("ul", { class: "plain" }, request.otherRequests.map((r) => h("li", {},
          h("a", { href: `/requests/${r.id}` }, requestDates(r)), ` · ${leaveTypeName(r.leaveTypeName)} · ${formatDays(r.workingDays)} `, statusBadge(r.status))))
        : empty(t("decide.noOthers")));

    let away;
    try {
      away = await awayAlongside(request, context);
    } catch (error) {
      away = section(t("decide.away"), h("p", { class: "field-error" }, problemMessage(error)));
    }

    const history = requestHistory(request);

    append(view,
      heading(t("decide.title", { name: fullName(request.employee), type: leaveTypeName(request.leaveTypeName), dates: requestDates(request) })),
      requestsNav(),
      h("div", { class: "cards two" }, section(t("holiday.details"), details), decision),
      h("div", { class: "cards" }, balances, away, others),
      history,
      h("p", {}, h("a", { href: "/requests" }, t("decide.back"))));
  },
};
