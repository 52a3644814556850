import Foundation

/// A page of the people list (everyone in the company, as colleagues see them).
public struct PeopleQuery: Sendable, Equatable {
    /// Words that must all occur in the name, surname, e-mail, position or username (case and accents ignored).
    public var search: String?
    /// Only active (true) or inactive (false) employees; nil for both.
    public var active: Bool?
    /// Keyset pagination: the employees after this one in list order.
    public var afterID: Int64?
    public var limit: Int

    public static let maximumSearchLength = 100
    public static let maximumLimit = 200

    public init(search: String? = nil, active: Bool? = nil, afterID: Int64? = nil, limit: Int = 50) {
        self.search = search
        self.active = active
        self.afterID = afterID
        self.limit = limit
    }
}

public struct PeoplePage: Sendable {
    public let items: [Profile]
    /// Employees matching the search and filter, in all pages.
    public let total: Int
    /// How many of those are active.
    public let active: Int
    /// Pass as `afterID` for the next page; nil on the last page.
    public let nextAfterID: Int64?

    public init(items: [Profile], total: Int, active: Int, nextAfterID: Int64?) {
        self.items = items
        self.total = total
        self.active = active
        self.nextAfterID = nextAfterID
    }
}

/// The fields an employee's folded copies (search text, sort key) are made from.
public struct FoldingSource: Sendable {
    public var employeeID: Int64
    public var username: String
    public var name: String
    public var surname: String
    public var email: String
    public var position: String?

    public init(employeeID: Int64, username: String, name: String, surname: String, email: String, position: String?) {
        self.employeeID = employeeID
        self.username = username
        self.name = name
        self.surname = surname
        self.email = email
        self.position = position
    }
}

/// A stored photo, for serving.
public struct StoredPhoto: Sendable {
    public let version: PhotoVersion
    /// nil when the caller did not want the bytes (the client already has this version).
    public let data: Data?

    public init(version: PhotoVersion, data: Data?) {
        self.version = version
        self.data = data
    }
}

/// What the people rules read: profiles, the people list and photos.
public protocol PeopleReading: CompanyReading {
    func profile(employeeID: Int64) throws -> Profile?
    func employeeExists(id: Int64) throws -> Bool
    /// Employees whose folded copies are missing (new, or cleared by a change of the fields they come from), at
    /// most `limit`, by id.
    func unfolded(limit: Int) throws -> [FoldingSource]
    /// Whether any employee's folded copies are missing: one row read at most.
    func hasUnfolded() throws -> Bool
    /// A page in list order (folded sort key, then id) of employees whose search text holds every one of
    /// `terms`; nil when `query.afterID` names no employee.
    func peoplePage(_ query: PeopleQuery, terms: [String]) throws -> PeoplePage?
    func photoVersion(employeeID: Int64) throws -> PhotoVersion?
    func photoData(employeeID: Int64) throws -> Data?
}

/// What filling one employee's folded copies reads and writes: every write that adds an employee or changes a field
/// they come from (`FoldedCopies`).
public protocol FoldedCopiesWriting {
    /// The employee's own fields to fold, if their folded copies are missing.
    func unfolded(employeeID: Int64) throws -> FoldingSource?
    func setFoldedCopies(employeeID: Int64, searchText: String, sortKey: String) throws
}

public protocol PeopleWriting: PeopleReading, FoldedCopiesWriting {
    /// Writes the profile's editable fields (name, surname, position, birth date, phone, Twitter, LinkedIn).
    func saveProfile(_ profile: Profile) throws
    func savePhoto(employeeID: Int64, version: PhotoVersion, inspected: PhotoRules.Inspected, bytes: [UInt8], at: Date) throws
    /// Removes the photo; false when there was none.
    func deletePhoto(employeeID: Int64) throws -> Bool
}

public typealias PeopleStore = TransactionalStore<any PeopleReading, any PeopleWriting>
