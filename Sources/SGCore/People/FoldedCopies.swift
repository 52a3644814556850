import Foundation

/// An employee's folded copies of their name fields (`employees.search_text`, `sort_key`), which the people list and
/// who is off search and sort by. The store's trigger clears them when a field they come from changes; every write
/// of the services that adds an employee or may change those fields fills them again before it commits, so the next
/// read in list order finds them in place and has nothing to write.
public enum FoldedCopies {
    /// The search text (name, surname, e-mail, username, position) and the sort key (surname, then name), folded.
    public static func copies(of source: FoldingSource) -> (searchText: String, sortKey: String) {
        let words = [source.name, source.surname, source.email, source.username, source.position ?? ""]
        // U+0001 sorts before every character a name can hold, so "surname U+0001 name" orders as (surname, name).
        return (TextFolding.fold(words.joined(separator: " ")), TextFolding.fold(source.surname) + "\u{1}" + TextFolding.fold(source.name))
    }

    /// Fills the employee's folded copies if they are missing: one row read when they are not.
    public static func refresh(_ tx: any FoldedCopiesWriting, employeeID: Int64) throws {
        if let source = try tx.unfolded(employeeID: employeeID) { try fold(source, in: tx) }
    }

    /// Fills missing folded copies of anyone (at most `limit`, by id); returns how many it filled.
    static func refresh(_ tx: any PeopleWriting, limit: Int) throws -> Int {
        let sources = try tx.unfolded(limit: limit)
        for source in sources { try fold(source, in: tx) }
        return sources.count
    }

    private static func fold(_ source: FoldingSource, in tx: any FoldedCopiesWriting) throws {
        let (searchText, sortKey) = copies(of: source)
        try tx.setFoldedCopies(employeeID: source.employeeID, searchText: searchText, sortKey: sortKey)
    }
}
