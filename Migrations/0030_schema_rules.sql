-- Which version of the rules the schema's triggers were written from (SGStore/SchemaRules.swift): when it is not the
-- program's, migrating replaces the triggers and counts the held days again.
CREATE TABLE schema_rules (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    digest TEXT NOT NULL DEFAULT ''
);
INSERT INTO schema_rules (id) VALUES (1);
