-- Employees that a company directory (LDAP) vouches for: where each lives in
-- the directory and the profile details only the directory holds. A row here
-- marks the employee as directory-managed, so `sgadmin ldap sync` may
-- deactivate them when they leave the directory; local accounts have no row.
CREATE TABLE directory_accounts (
    employee_id INTEGER PRIMARY KEY REFERENCES employees(id),
    -- The entry's distinguished name at the last login or sync.
    dn TEXT NOT NULL,
    display_name TEXT,
    title TEXT,
    phone TEXT,
    synced_at TEXT NOT NULL
);
