-- People and news: profile fields, photos, notification settings and devices,
-- the notice board, and the company's contact details. Optional text is NULL
-- when not given (never ''), so "not given" has one spelling.

-- What an employee keeps about themself. A company directory may hold name,
-- surname and e-mail (see EmployeeDirectory.ownedFields); these it does not.
ALTER TABLE employees ADD COLUMN position TEXT;
ALTER TABLE employees ADD COLUMN birth_date TEXT
    CHECK (birth_date IS NULL OR birth_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
ALTER TABLE employees ADD COLUMN phone TEXT;
-- A Twitter/X handle without the '@'.
ALTER TABLE employees ADD COLUMN twitter TEXT;
ALTER TABLE employees ADD COLUMN linkedin TEXT;
-- Whether the employee wants push notifications; turning it off removes their devices.
ALTER TABLE employees ADD COLUMN notifications INTEGER NOT NULL DEFAULT 1 CHECK (notifications IN (0, 1));

-- The team directory's search and order ignore case and accents ("jose" finds "José"). These are folded
-- copies (SGCore's TextFolding) of name, surname, e-mail, username and position, and of surname + name for
-- the order. Whoever changes a source column (the API, a directory login, sgadmin, a hand edit), the trigger
-- clears the copies, and the store refills cleared or missing ones before the directory reads: never stale.
ALTER TABLE employees ADD COLUMN search_text TEXT;
ALTER TABLE employees ADD COLUMN sort_key TEXT;
CREATE INDEX employees_directory ON employees(sort_key, id);
CREATE INDEX employees_unfolded ON employees(id) WHERE search_text IS NULL OR sort_key IS NULL;
CREATE TRIGGER employees_folded_stale AFTER UPDATE OF name, surname, email, username, position ON employees
WHEN NEW.search_text IS OLD.search_text
BEGIN UPDATE employees SET search_text = NULL, sort_key = NULL WHERE id = NEW.id; END;

-- One photo per employee, checked as JPEG or PNG when stored. The ETag is a
-- digest of the bytes; photo URLs carry it, so a new photo is a new URL.
CREATE TABLE employee_photos (
    employee_id INTEGER PRIMARY KEY REFERENCES employees(id),
    etag TEXT NOT NULL,
    content_type TEXT NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    byte_count INTEGER NOT NULL CHECK (byte_count > 0),
    updated_at TEXT NOT NULL,
    -- Last, so that reading the columns above (directory listings) never loads the image.
    data BLOB NOT NULL
);

-- Push tokens of the apps an employee is logged in to. Delivery comes later;
-- a token belongs to the employee who registered it last.
CREATE TABLE devices (
    token TEXT PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    platform TEXT NOT NULL CHECK (platform IN ('ios', 'android')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX devices_employee ON devices(employee_id);

-- The notice board. Company notices are posted by admins for everyone;
-- personal notices are written by the holiday rules, in the same transaction
-- as each transition of the employee's request, and only that employee sees them.
-- AUTOINCREMENT: ids never come back after a delete, so "newest first" is "largest id first".
CREATE TABLE notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('company', 'personal')),
    -- The employee a personal notice is for.
    employee_id INTEGER REFERENCES employees(id),
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    -- The last day a company notice is shown (company time zone); NULL: until deleted.
    expires_on TEXT CHECK (expires_on IS NULL OR expires_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    -- Who posted it, or who made the transition: a username, or "NAME (sgadmin)".
    author TEXT NOT NULL,
    author_employee_id INTEGER REFERENCES employees(id),
    -- For personal notices: the transition they report.
    request_id INTEGER REFERENCES holiday_requests(id),
    from_status TEXT CHECK (from_status IN ('pending', 'approved', 'rejected', 'cancelled')),
    to_status TEXT CHECK (to_status IN ('pending', 'approved', 'rejected', 'cancelled')),
    note TEXT,
    read_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK ((kind = 'personal') = (employee_id IS NOT NULL)),
    CHECK (kind = 'personal' OR (request_id IS NULL AND read_at IS NULL)),
    CHECK (kind = 'company' OR (pinned = 0 AND expires_on IS NULL AND request_id IS NOT NULL AND to_status IS NOT NULL))
);
CREATE INDEX notices_company ON notices(pinned, id) WHERE kind = 'company';
CREATE INDEX notices_personal ON notices(employee_id, id) WHERE kind = 'personal';

-- A personal notice is a record of what happened: only its read flag changes.
CREATE TRIGGER notices_personal_fixed BEFORE UPDATE OF kind, employee_id, title, body, request_id, from_status, to_status, note ON notices
WHEN OLD.kind = 'personal'
BEGIN SELECT RAISE(ABORT, 'personal notices are fixed; only read_at changes'); END;

-- The company's contact details, shown by the clients.
ALTER TABLE company ADD COLUMN address TEXT;
ALTER TABLE company ADD COLUMN phone TEXT;
ALTER TABLE company ADD COLUMN email TEXT;
ALTER TABLE company ADD COLUMN website TEXT;
