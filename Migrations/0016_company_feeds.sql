-- The company's news feeds (RSS 2.0 or Atom) for the main screen, in the order the admins gave them, and the last
-- good copy of each as the server fetched it: a restart, or a feed that is down, still serves that copy. `etag` and
-- `last_modified` make the next fetch conditional; `failure` is the last attempt's problem (null after a good one).
CREATE TABLE company_feeds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL,
    title TEXT,
    etag TEXT,
    last_modified TEXT,
    fetched_at TEXT,
    checked_at TEXT,
    failure TEXT
);

-- A feed's items as last fetched, already reduced to plain text; replaced whole by each new copy.
CREATE TABLE company_feed_items (
    feed_id INTEGER NOT NULL REFERENCES company_feeds(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    link TEXT,
    published TEXT,
    summary TEXT NOT NULL,
    PRIMARY KEY (feed_id, position)
);
-- The main screen reads the newest items of every feed at once.
CREATE INDEX company_feed_items_published ON company_feed_items(published);
