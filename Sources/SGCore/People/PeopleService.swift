import Foundation

/// Profiles, the people list and photos. The API and `sgadmin` both call this type.
public struct PeopleService: Sendable {
    public let store: any PeopleStore
    public let clock: any NowProvider

    public init(store: any PeopleStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    // MARK: Profiles

    public func profile(employeeID: Int64) async throws -> Profile {
        guard let profile = try await store.read({ tx in try tx.profile(employeeID: employeeID) }) else {
            throw SGError.notFound("Employee \(employeeID) does not exist.")
        }
        return profile
    }

    /// Applies `patch` to an employee's profile under `ProfileRules`, in one transaction. `owned` are the fields
    /// the login directory holds; birth dates are checked against today in the company's time zone. With
    /// `ifMatch`, a valid change is made only when it accepts the profile as it is, else refused as changed since
    /// read.
    public func updateProfile(
        employeeID: Int64, _ patch: ProfilePatch, owned: Set<ProfileField>, directoryKind: String,
        ifMatch: (@Sendable (Profile) -> Bool)? = nil
    ) async throws -> Profile {
        let now = clock.now()
        return try await store.write { tx in
            guard let current = try tx.profile(employeeID: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            let updated = try ProfileRules.apply(
                patch, to: current, owned: owned, directoryKind: directoryKind, today: try tx.today(at: now))
            // After the input's checks: a change that would be refused anyway says why, whatever version it names.
            if let ifMatch, !ifMatch(current) {
                throw SGError.preconditionFailed("The profile has changed since it was read. Read it again and apply your change to it.")
            }
            guard updated != current else { return current }
            try tx.saveProfile(updated)
            try FoldedCopies.refresh(tx, employeeID: employeeID)
            return updated
        }
    }

    // MARK: The people list

    /// Employees in list order (surname, name, id; case and accents ignored), a page at a time.
    public func list(_ query: PeopleQuery) async throws -> PeoplePage {
        if let search = query.search, !TextRules.fits(search, PeopleQuery.maximumSearchLength) {
            throw SGError.invalid(field: "q", message: "at most \(PeopleQuery.maximumSearchLength) characters")
        }
        guard (1...PeopleQuery.maximumLimit).contains(query.limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 1 and \(PeopleQuery.maximumLimit)")
        }
        let terms = query.search.map(TextFolding.terms) ?? []
        try await refreshFoldedCopiesIfNeeded()
        guard let page = try await store.read({ tx in try tx.peoplePage(query, terms: terms) }) else {
            throw SGError.invalid(field: "after", message: "\(query.afterID ?? 0) is not an employee id; pass the nextAfter of the previous page")
        }
        return page
    }

    /// Employees folded by one write at most. Each employee's fold is a statement of its own, and a write committed
    /// together with others runs in a savepoint, where SQLite (3.40) walks the savepoint's in-memory journal from its
    /// start at the end of every statement: the time of one write grows with the square of what it folds.
    public static let foldsPerWrite = 100

    /// Fills missing folded copies before a read in list order (the people list, who is off): a read of one row
    /// when none is missing, otherwise writes of `foldsPerWrite` employees each until none is. The services fold
    /// what they write (`FoldedCopies`), so this finds rows only where something else wrote the table: a hand edit,
    /// or rows an older release wrote.
    public func refreshFoldedCopiesIfNeeded(foldsPerWrite: Int = PeopleService.foldsPerWrite) async throws {
        guard try await store.read({ tx in try tx.hasUnfolded() }) else { return }
        // A write that found fewer than it may fold left none (others may add more; the next read folds those).
        while try await store.write({ tx in try FoldedCopies.refresh(tx, limit: foldsPerWrite) == foldsPerWrite }) {}
    }

    // MARK: Photos

    /// Stores a new photo for the employee after checking its bytes (`PhotoRules`); returns its version.
    public func setPhoto(employeeID: Int64, bytes: [UInt8]) async throws -> (PhotoVersion, PhotoRules.Inspected) {
        let inspected = try PhotoRules.inspect(bytes)
        // A new photo is a new version tag, and so a new URL that no cache has seen.
        let version = PhotoVersion(etag: Digests.sha256Hex(bytes, prefix: 16), contentType: inspected.contentType)
        let now = clock.now()
        try await store.write { tx in
            guard try tx.employeeExists(id: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            try tx.savePhoto(employeeID: employeeID, version: version, inspected: inspected, bytes: bytes, at: now)
        }
        return (version, inspected)
    }

    /// Removes the employee's photo; true when there was one.
    @discardableResult
    public func deletePhoto(employeeID: Int64) async throws -> Bool {
        try await store.write { tx in try tx.deletePhoto(employeeID: employeeID) }
    }

    /// The employee's photo, with its bytes when `wantsData` says so for its version (a client revalidating
    /// the version it has needs none); `SGError.notFound` when the employee does not exist or has no photo.
    public func photo(
        employeeID: Int64, wantsData: @escaping @Sendable (PhotoVersion) -> Bool = { _ in true }
    ) async throws -> StoredPhoto {
        try await store.read { tx in
            guard let version = try tx.photoVersion(employeeID: employeeID) else {
                guard try tx.employeeExists(id: employeeID) else {
                    throw SGError.notFound("Employee \(employeeID) does not exist.")
                }
                throw SGError.notFound("Employee \(employeeID) has no photo.")
            }
            return StoredPhoto(version: version, data: wantsData(version) ? try tx.photoData(employeeID: employeeID) : nil)
        }
    }
}
