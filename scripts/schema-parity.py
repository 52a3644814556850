#!/usr/bin/env python3
"""PostgreSQL's schema (Migrations/postgres/*.sql) against SQLite's after every migration.

Migrates a new SQLite file with the built sgadmin and loads the PostgreSQL schema (its files in order) into a new database of a cluster of
scripts/postgres.sh (one started for the run, or --cluster DIR of a running one), then compares tables, columns
(names, types, NOT NULL), primary keys, unique constraints, foreign keys, index names, trigger names and the seed
rows' counts per table. It then runs the same statements on both (triggers and checks that must refuse, writes that
must pass, the held days the triggers keep) and Sources/SGStore/Invariants.sql and Invariants.postgres.sql on the
data left, and compares the answers. Prints each difference; ends with "N passed, M failed" and exits 1 on any.

Usage: scripts/schema-parity.py [--sgadmin .build/debug/sgadmin] [--cluster DIR]
"""

import argparse
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
POSTGRES_SH = os.path.join(ROOT, "scripts", "postgres.sh")
SCHEMA = os.path.join(ROOT, "Migrations", "postgres")
INVARIANTS = os.path.join(ROOT, "Sources", "SGStore", "Invariants.sql")
INVARIANTS_POSTGRES = os.path.join(ROOT, "Sources", "SGStore", "Invariants.postgres.sql")

# Tables of the engines' own bookkeeping, not of the schema.
SQLITE_OWN = {"sqlite_sequence", "grdb_migrations"}
POSTGRES_OWN = {"commit_generation"}
TYPES = {"INTEGER": "bigint", "TEXT": "text", "BLOB": "bytea", "REAL": "double precision"}
ON_DELETE = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}

# PostgreSQL skips the identity values of failed inserts, SQLite does not: the scenario names its request so.
REQUEST = "(SELECT max(id) FROM holiday_requests)"

# The same statements on both engines, in order: (statement, expected). Expected: "ok", "refused" (any error), an
# error message both must give (a trigger's), or the rows of a query, each row's values joined by "|".
SCENARIO = [
    ("INSERT INTO employees (username, name, surname, email, created_at) "
     "VALUES ('alice', 'Alice', 'Example', 'alice@example.com', '2026-01-01T00:00:00.000Z')", "ok"),
    ("INSERT INTO employees (username, name, surname, email, created_at) "
     "VALUES ('ALICE', 'Alice', 'Other', 'other@example.com', '2026-01-01T00:00:00.000Z')", "refused"),
    ("SELECT id FROM employees WHERE username = 'Alice'", ["1"]),
    ("UPDATE employees SET search_text = 'alice example', sort_key = 'example alice' WHERE id = 1", "ok"),
    ("UPDATE employees SET name = 'Alice' WHERE id = 1", "ok"),
    ("SELECT CASE WHEN search_text IS NULL THEN 'cleared' ELSE 'kept' END FROM employees WHERE id = 1", ["kept"]),
    ("UPDATE employees SET name = 'Alicia' WHERE id = 1", "ok"),
    ("SELECT CASE WHEN search_text IS NULL AND sort_key IS NULL THEN 'cleared' ELSE 'kept' END FROM employees", ["cleared"]),
    ("SELECT COUNT(*) FROM view_changes WHERE token = 1 AND employee_id = 1", ["1"]),
    ("UPDATE employees SET is_admin = 2 WHERE id = 1", "refused"),
    ("UPDATE employees SET birth_date = '1990-1-01' WHERE id = 1", "refused"),
    ("UPDATE company SET working_days = '12348'", "refused"),
    ("UPDATE company SET carry_over_expiry = '02-29'", "refused"),
    ("INSERT INTO allowances (employee_id, year, days) VALUES (99, 2026, 20)", "refused"),
    ("INSERT INTO public_holidays (calendar_id, date, name) VALUES (1, '2026-12-25', 'Christmas Day')", "ok"),
    ("INSERT INTO public_holidays (calendar_id, date, name) VALUES (1, '2026-12-26', 'Boxing Day')", "ok"),
    ("INSERT INTO leave_types (name, draws_on_allowance, needs_approval, is_private) VALUES ('HOLIDAY', 1, 1, 0)",
     "refused"),
    ("INSERT INTO leave_types (name, draws_on_allowance, needs_approval, is_private) VALUES ('training', 0, 1, 0)", "ok"),
    ("SELECT name FROM leave_types WHERE name = 'Training'", ["training"]),
    ("INSERT INTO holiday_requests (employee_id, start_date, end_date, status, created_at, updated_at, halves) "
     "VALUES (1, '2026-03-30', '2026-04-02', 'pending', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 0)",
     "a request covers at least one working half day, forwards"),
    ("INSERT INTO holiday_requests (employee_id, start_date, end_date, status, created_at, updated_at, halves, "
     "starts_afternoon, ends_morning) VALUES (1, '2026-03-30', '2026-03-30', 'pending', '2026-03-01T00:00:00.000Z', "
     "'2026-03-01T00:00:00.000Z', 1, 1, 1)", "a request covers at least one working half day, forwards"),
    ("INSERT INTO holiday_requests (employee_id, start_date, end_date, status, created_at, updated_at, halves) "
     "VALUES (1, '2026-04-02', '2026-03-30', 'pending', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 8)",
     "refused"),
    ("INSERT INTO holiday_requests (employee_id, start_date, end_date, status, created_at, updated_at, halves) "
     "VALUES (1, '2026-03-30', '2026-04-02', 'pending', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 8)", "ok"),
    ("INSERT INTO holiday_request_days (request_id, employee_id, year, leave_type_id, halves) VALUES ({request}, 1, 2026, 1, 8)",
     "ok"),
    ("INSERT INTO holiday_events (request_id, from_status, to_status, actor, at) "
     "VALUES ({request}, NULL, 'pending', 'alice', '2026-03-01T00:00:00.000Z')", "ok"),
    ("SELECT year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry FROM held_days",
     ["2026|0|8|0|1"]),
    ("UPDATE holiday_requests SET status = 'approved-by-manager' WHERE id = {request}", "ok"),
    ("SELECT year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry FROM held_days",
     ["2026|0|8|0|1"]),
    ("UPDATE holiday_requests SET status = 'approved', decided_by = 'admin', decided_at = '2026-03-02T00:00:00.000Z' "
     "WHERE id = {request}", "ok"),
    ("SELECT year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry FROM held_days",
     ["2026|8|0|0|1"]),
    ("UPDATE company SET carry_over_expiry = '04-30'", "ok"),
    ("SELECT year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry FROM held_days",
     ["2026|8|0|8|0"]),
    ("UPDATE holiday_requests SET status = 'cancelled' WHERE id = {request}", "ok"),
    ("SELECT year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry FROM held_days",
     ["2026|0|0|0|0"]),
    ("SELECT CAST(julianday(end_date) - julianday(start_date) AS INTEGER) FROM holiday_requests", ["3"]),
    ("SELECT CAST(julianday('2028-03-01') - julianday('2027-12-31') AS INTEGER)", ["61"]),
    ("DELETE FROM holiday_requests WHERE id = {request}", "holiday requests are never deleted; cancel them instead"),
    ("UPDATE holiday_events SET note = 'x'", "holiday_events is append-only"),
    ("DELETE FROM holiday_events", "holiday_events is append-only"),
    ("UPDATE holiday_request_days SET halves = 1", "holiday_request_days is fixed when a request is made"),
    ("UPDATE leave_types SET draws_on_allowance = 0 WHERE id = 1",
     "a leave type in use keeps whether it draws on the allowance"),
    ("UPDATE leave_types SET draws_on_allowance = 1 WHERE id = 3", "ok"),
    ("INSERT INTO allowance_changes (employee_id, year, kind, halves, reason, actor, at) "
     "VALUES (1, 2026, 'adjust', 4, '  ', 'admin', '2026-03-01T00:00:00.000Z')", "refused"),
    ("INSERT INTO allowance_changes (employee_id, year, kind, halves, reason, actor, at) "
     "VALUES (1, 2026, 'adjust', 4, 'Overtime', 'admin', '2026-03-01T00:00:00.000Z')", "ok"),
    ("DELETE FROM allowance_changes", "allowance_changes is append-only"),
    ("INSERT INTO notices (kind, employee_id, title, body, author, request_id, from_status, to_status, created_at, "
     "updated_at) VALUES ('personal', 1, 'Cancelled', 'Your request', 'alice', {request}, 'approved', 'cancelled', "
     "'2026-03-03T00:00:00.000Z', '2026-03-03T00:00:00.000Z')", "ok"),
    ("INSERT INTO notices (kind, employee_id, title, body, author, created_at, updated_at) "
     "VALUES ('company', 1, 'News', 'Hello', 'admin', '2026-03-03T00:00:00.000Z', '2026-03-03T00:00:00.000Z')",
     "refused"),
    ("UPDATE notices SET title = 'Changed' WHERE kind = 'personal'", "personal notices are fixed; only read_at changes"),
    ("UPDATE notices SET read_at = '2026-03-04T00:00:00.000Z' WHERE kind = 'personal'", "ok"),
    ("INSERT INTO devices (token, employee_id, platform, created_at, updated_at) "
     "VALUES ('web_x', 1, 'web', '2026-03-03T00:00:00.000Z', '2026-03-03T00:00:00.000Z')", "refused"),
    ("INSERT INTO company_feeds (url, position) VALUES ('https://example.com/feed', 0)", "ok"),
    ("INSERT INTO company_feed_items (feed_id, position, title, summary) VALUES (1, 0, 'Item', 'Text')", "ok"),
    ("DELETE FROM company_feeds", "ok"),
    ("SELECT COUNT(*) FROM company_feed_items", ["0"]),
    ("INSERT INTO teams (name) VALUES ('Support')", "ok"),
    ("INSERT INTO teams (name) VALUES ('support')", "refused"),
    ("INSERT INTO delegations (approver_id, substitute_id, from_date, until_date) "
     "VALUES (1, 1, '2026-03-01', '2026-03-02')", "refused"),
]


class Check:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def same(self, what, sqlite_side, postgres_side):
        if sqlite_side == postgres_side:
            self.passed += 1
            return
        self.failed += 1
        print(f"DIFFERS: {what}")
        if isinstance(sqlite_side, (set, frozenset)) and isinstance(postgres_side, (set, frozenset)):
            for item in sorted(map(str, sqlite_side - postgres_side)):
                print(f"  only in SQLite:     {item}")
            for item in sorted(map(str, postgres_side - sqlite_side)):
                print(f"  only in PostgreSQL: {item}")
        else:
            print(f"  SQLite:     {sqlite_side}")
            print(f"  PostgreSQL: {postgres_side}")


class Postgres:
    """psql against one database, over TCP with the cluster's PGPASSFILE."""

    def __init__(self, url, passfile):
        self.url = url
        self.env = dict(os.environ, PGPASSFILE=passfile, PGCONNECT_TIMEOUT="10")

    def run(self, sql, *extra):
        return subprocess.run(
            ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", self.url, *extra],
            input=sql, env=self.env, capture_output=True, text=True, timeout=120)

    def rows(self, sql):
        result = self.run(sql, "-F", "\t")
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr.strip()}\n{sql}")
        return [tuple(line.split("\t")) for line in result.stdout.splitlines()]


def sqlite_catalog(db):
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
              if row[0] not in SQLITE_OWN]
    catalog = {"tables": set(tables), "columns": set(), "not_null": set(), "types": set(), "primary_keys": set(),
               "unique": set(), "foreign_keys": set(), "indexes": set(), "triggers": set(), "seed_rows": set()}
    for table in tables:
        info = db.execute(f"SELECT name, type, \"notnull\", pk FROM pragma_table_info('{table}')").fetchall()
        for name, kind, not_null, pk in info:
            catalog["columns"].add((table, name))
            # A primary key's columns hold no NULL on either engine (SQLite's INTEGER PRIMARY KEY is the rowid).
            if not_null or pk:
                catalog["not_null"].add((table, name))
            catalog["types"].add((table, name, TYPES.get(kind.upper(), kind)))
        pk = tuple(name for name, _, _, position in sorted(info, key=lambda column: column[3]) if position)
        if pk:
            catalog["primary_keys"].add((table, pk))
        for _, index, unique, origin, _ in db.execute(f"SELECT * FROM pragma_index_list('{table}')"):
            columns = tuple(row[0] for row in db.execute(
                f"SELECT name FROM pragma_index_info('{index}') ORDER BY seqno"))
            if origin == "u":
                catalog["unique"].add((table, columns))
            elif origin == "c":
                catalog["indexes"].add((table, index, bool(unique)))
        keys = {}
        for fk_id, _, target, source, target_column, _, on_delete, _ in db.execute(
                f"SELECT * FROM pragma_foreign_key_list('{table}')"):
            keys.setdefault(fk_id, [target, [], [], on_delete])
            keys[fk_id][1].append(source)
            keys[fk_id][2].append(target_column)
        for target, sources, targets, on_delete in keys.values():
            catalog["foreign_keys"].add((table, tuple(sources), target, tuple(targets), on_delete))
        count = db.execute(f"SELECT COUNT(*) FROM \"{table}\"").fetchone()[0]
        catalog["seed_rows"].add((table, count))
    for table, name in db.execute("SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger'"):
        catalog["triggers"].add((table, name))
    return catalog


def postgres_catalog(pg):
    catalog = {"tables": set(), "columns": set(), "not_null": set(), "types": set(), "primary_keys": set(),
               "unique": set(), "foreign_keys": set(), "indexes": set(), "triggers": set(), "seed_rows": set()}
    for (table,) in pg.rows("SELECT table_name FROM information_schema.tables "
                            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"):
        catalog["tables"].add(table)
        count = pg.rows(f'SELECT COUNT(*) FROM "{table}"')[0][0]
        catalog["seed_rows"].add((table, int(count)))
    for table, column, kind, nullable in pg.rows(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = current_schema()"):
        catalog["columns"].add((table, column))
        catalog["types"].add((table, column, kind))
        if nullable == "NO":
            catalog["not_null"].add((table, column))
    # Constraints with their columns in the key's order; a unique index on lower(col) would show as an expression.
    for table, kind, columns, target, target_columns, on_delete in pg.rows("""
            SELECT c.conrelid::regclass::text, c.contype,
                   (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num),
                   COALESCE(c.confrelid::regclass::text, ''),
                   COALESCE((SELECT string_agg(a.attname, ',' ORDER BY k.ord)
                             FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
                             JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num), ''),
                   c.confdeltype
            FROM pg_constraint c
            WHERE c.connamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')"""):
        columns = tuple(columns.split(","))
        if kind == "p":
            catalog["primary_keys"].add((table, columns))
        elif kind == "u":
            catalog["unique"].add((table, columns))
        else:
            catalog["foreign_keys"].add(
                (table, columns, target, tuple(target_columns.split(",")), ON_DELETE.get(on_delete, on_delete)))
    # Indexes that no constraint owns: the ones the schema names.
    for table, index, unique in pg.rows("""
            SELECT t.relname, i.relname, x.indisunique FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
            WHERE t.relnamespace = current_schema()::regnamespace
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)"""):
        catalog["indexes"].add((table, index, unique == "t"))
    for table, name in pg.rows("SELECT tgrelid::regclass::text, tgname FROM pg_trigger "
                               "WHERE NOT tgisinternal AND tgrelid::regclass::text NOT LIKE 'pg_%'"):
        catalog["triggers"].add((table, name))
    # PostgreSQL's own bookkeeping (the commit generation that replaces SQLite's data_version) is not compared.
    return {kind: {entry for entry in entries if entry[0] not in POSTGRES_OWN} if kind != "tables"
            else entries - POSTGRES_OWN for kind, entries in catalog.items()}


def compare_catalogs(check, lite, pg):
    check.same("tables", lite["tables"], pg["tables"])
    for part in ("columns", "not_null", "types", "primary_keys", "unique", "foreign_keys", "indexes", "seed_rows"):
        check.same(part.replace("_", " "), lite[part], pg[part])
    # PostgreSQL adds statement triggers for TRUNCATE, which SQLite does not have: every SQLite trigger is there.
    check.same("triggers (SQLite's on PostgreSQL)", lite["triggers"], lite["triggers"] & pg["triggers"])


def sqlite_outcome(db, sql):
    try:
        rows = db.execute(sql).fetchall()
    except sqlite3.Error as error:
        return ("error", str(error))
    if sql.lstrip().upper().startswith("SELECT"):
        return ("rows", ["|".join("" if value is None else str(value) for value in row) for row in rows])
    return ("ok", "")


def postgres_outcome(pg, sql):
    result = pg.run(sql, "-F", "|")
    if result.returncode != 0:
        message = result.stderr.strip().splitlines()[0] if result.stderr.strip() else "error"
        return ("error", message.removeprefix("psql:<stdin>:1: ").removeprefix("ERROR:  "))
    if sql.lstrip().upper().startswith("SELECT"):
        return ("rows", result.stdout.splitlines())
    return ("ok", "")


def matches(outcome, expected):
    kind, value = outcome
    if expected == "ok":
        return kind == "ok"
    if expected == "refused":
        return kind == "error"
    if isinstance(expected, list):
        return kind == "rows" and value == expected
    return kind == "error" and value.endswith(expected)


def run_scenario(check, db, pg):
    for sql, expected in SCENARIO:
        sql = sql.replace("{request}", REQUEST)
        lite, post = sqlite_outcome(db, sql), postgres_outcome(pg, sql)
        if matches(lite, expected) and matches(post, expected):
            check.passed += 1
            continue
        check.failed += 1
        print(f"DIFFERS: {sql}\n  expected:   {expected}\n  SQLite:     {lite}\n  PostgreSQL: {post}")


def compare_invariants(check, db, pg):
    with open(INVARIANTS) as file:
        lite = [f"{name}|{count}" for name, count in
                (db.execute(statement).fetchone() for statement in split_statements(file.read()))]
    with open(INVARIANTS_POSTGRES) as file:
        post = [f"{name}|{count}" for name, count in pg.rows(file.read())]
    # The scenario leaves a request whose history ends before its status: both must count it.
    check.same("Invariants.sql and Invariants.postgres.sql on the same data", lite, post)
    check.same("the invariants find the request whose history ends before its status",
               "history ends in the current status|1",
               next((line for line in post if line.startswith("history ends")), None))


def split_statements(text):
    statements, current = [], ""
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current)
            current = ""
    return statements


def start_cluster(directory):
    subprocess.run([POSTGRES_SH, "start", directory], check=True, timeout=300)


def cluster_env(directory):
    output = subprocess.run([POSTGRES_SH, "env", directory], check=True, capture_output=True, text=True).stdout
    env = {}
    for line in output.splitlines():
        key, _, value = line.partition("=")
        env[key] = shlex.split(value)[0]
    return env["SG_TEST_POSTGRES_URL"], env["PGPASSFILE"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgadmin", default=os.path.join(ROOT, ".build", "debug", "sgadmin"))
    parser.add_argument("--cluster", help="the DIR of a cluster started by scripts/postgres.sh (else one is started)")
    args = parser.parse_args()
    # Each line in its place among the cluster script's, and the closing count last.
    sys.stdout.reconfigure(line_buffering=True)

    check = Check()
    work = tempfile.mkdtemp(prefix="sg-parity-")
    # The cluster's owner (postgres, under root) must reach its folder.
    os.chmod(work, 0o755)
    cluster = args.cluster or os.path.join(work, "cluster")
    database = f"parity_{os.getpid()}"
    admin = None
    try:
        if not args.cluster:
            start_cluster(cluster)
        url, passfile = cluster_env(cluster)
        admin = Postgres(url, passfile)
        created = admin.run(f"CREATE DATABASE {database}")
        if created.returncode != 0:
            raise RuntimeError(f"cannot create a database: {created.stderr.strip()}")
        pg = Postgres(url.rsplit("/", 1)[0] + "/" + database, passfile)
        for name in sorted(name for name in os.listdir(SCHEMA) if name.endswith(".sql")):
            with open(os.path.join(SCHEMA, name)) as file:
                loaded = pg.run(file.read(), "--single-transaction")
            if loaded.returncode != 0:
                raise RuntimeError(f"{name} does not load: {loaded.stderr.strip()}")

        sqlite_file = os.path.join(work, "parity.sqlite")
        migrated = subprocess.run([args.sgadmin, "migrate", "--database", sqlite_file],
                                  capture_output=True, text=True, timeout=120)
        if migrated.returncode != 0:
            raise RuntimeError(f"sgadmin migrate failed: {migrated.stderr.strip()}")
        db = sqlite3.connect(sqlite_file, isolation_level=None)
        db.execute("PRAGMA foreign_keys = ON")

        compare_catalogs(check, sqlite_catalog(db), postgres_catalog(pg))
        run_scenario(check, db, pg)
        compare_invariants(check, db, pg)
        db.close()
    except (RuntimeError, subprocess.SubprocessError, OSError) as error:
        print(f"FAILED: {error}")
        check.failed += 1
    finally:
        if admin is not None:
            admin.run(f"DROP DATABASE IF EXISTS {database}")
        if not args.cluster:
            subprocess.run([POSTGRES_SH, "stop", cluster], timeout=120)
        subprocess.run(["rm", "-rf", work])
    print(f"{check.passed} passed, {check.failed} failed")
    return 0 if check.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
