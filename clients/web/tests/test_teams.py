"""The teams as the approvers' and admins' screens read them: a page at a time, by name (`limit`, then `after` the
last name), never all of them with every member at once. An approver chooses among the teams they decide for,
and their team calendar shows the team chosen; an admin's chooser and list read the next page on demand."""
import re

from playwright.sync_api import expect

from conftest import Api, listen
from pages import LoginPage, QueuePage, TeamCalendarPage, TeamsPage

PASSWORD = "{}-demo-2026"


def test_an_approver_chooses_among_their_own_teams(page, api):
    token = api.login("jose")
    sales = api.get("/v1/teams?limit=50", token)
    assert [team["name"] for team in sales] == ["Sales"]
    sales = sales[0]
    teams_asked, _ = listen(page, "/v1/teams")
    absences_asked, _ = listen(page, "/v1/absences")

    LoginPage(page).open().log_in("jose").go("Requests", QueuePage)
    # The queue's filter offers his team, and every team of his.
    page.locator("details.filters-box > summary").click()
    expect(page.get_by_label("Team", exact=True).locator("option")).to_have_text(["Every team", "Sales"])

    # The team calendar shows his team, the one he decides for: its members, nobody else's.
    page.get_by_role("navigation", name="Requests sections").get_by_role("link", name="Team calendar").click()
    calendar = TeamCalendarPage(page).wait()
    expect(calendar.team.locator("option")).to_have_text(["Sales"])
    expect(calendar.team).to_have_value(str(sales["id"]))
    expect(calendar.caption).to_have_text(re.compile("^Who is away in Sales, "))
    members = [f"{m['name']} {m['surname']}" for m in sales["members"]]
    expect(calendar.grid.locator("tbody tr")).to_have_count(len(members))
    for name in members:
        expect(calendar.row(name)).to_have_count(1)
    expect(calendar.row("Bob Builder")).to_have_count(0)
    expect(calendar.more_teams).to_have_count(0)
    assert absences_asked and all(q.get("team") == str(sales["id"]) for q in absences_asked), absences_asked

    # The month after keeps the team.
    page.get_by_role("link", name=re.compile("^Month after")).click()
    calendar.wait()
    expect(calendar.caption).to_have_text(re.compile("^Who is away in Sales, "))
    assert teams_asked and all(q == {"limit": "50"} for q in teams_asked), teams_asked


def test_the_teams_are_read_a_page_at_a_time(new_context, short_token_server):
    """On a fresh server of its own: 53 teams, read 50 at a time by the admins' list and the calendar's chooser."""
    api = Api(short_token_server)
    token = api.login("admin", PASSWORD.format("admin"))
    for number in range(1, 52):
        status, body = api.call("POST", "/v1/teams", token, {"name": f"Paging {number:02d}"})
        assert status == 201, body
    names = [team["name"] for team in api.get("/v1/teams?limit=200", token)]
    assert len(names) == 53 and names[0] == "Engineering" and names[-1] == "Sales", names
    sales = api.get("/v1/teams?limit=200", token)[-1]

    page = new_context(base_url=short_token_server).new_page()
    teams_asked, _ = listen(page, "/v1/teams")
    LoginPage(page).open().log_in("admin")

    # The admins' list: 50 teams, then the rest after the 50th name, and no more to show.
    teams = TeamsPage(page).open()
    rows = page.locator("ul.teams > li")
    expect(rows).to_have_count(50)
    assert teams_asked == [{"limit": "50"}], teams_asked
    page.get_by_role("button", name="Show more").click()
    expect(rows).to_have_count(53)
    assert teams_asked == [{"limit": "50"}, {"limit": "50", "after": names[49]}], teams_asked
    expect(rows.nth(50).get_by_role("link")).to_be_focused()
    expect(rows.nth(52).get_by_role("link")).to_have_text("Sales")
    expect(page.get_by_role("button", name="Show more")).to_have_count(0)
    expect(teams.heading).to_have_text("Teams")

    # The calendar's chooser: everyone and the first 50; "More teams" adds the rest and gives the focus back.
    del teams_asked[:]
    calendar = TeamCalendarPage(page).open("/requests/calendar")
    expect(calendar.team.locator("option")).to_have_count(51)
    expect(calendar.team.locator("option").first).to_have_text("Everyone")
    expect(calendar.team).to_have_value(str(api.get("/v1/teams?limit=1", token)[0]["id"]))
    calendar.more_teams.click()
    expect(calendar.team.locator("option")).to_have_count(54)
    expect(calendar.team).to_be_focused()
    expect(calendar.more_teams).to_have_count(0)
    assert teams_asked == [{"limit": "50"}, {"limit": "50", "after": names[49]}], teams_asked
    calendar.show_team("Sales")
    expect(calendar.caption).to_have_text(re.compile("^Who is away in Sales, "))
    assert re.search(rf"[?&]team={sales['id']}(&|$)", page.url), page.url

    # Opened again at that address, the chosen team (beyond the first page) is still the one chosen.
    page.reload()
    calendar = TeamCalendarPage(page).wait()
    expect(calendar.team).to_have_value(str(sales["id"]))
    expect(calendar.caption).to_have_text(re.compile("^Who is away in Sales, "))
    assert not [q for q in teams_asked if "limit" not in q and "member" not in q], teams_asked
