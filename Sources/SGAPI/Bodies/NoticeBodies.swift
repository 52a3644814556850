import Foundation
import SGCore

extension DTO {
    struct NoticeRequest: Encodable {
        let id: Int64
        let startDate: String
        let endDate: String
        /// null when the notice reports a new request.
        @Nullable var from: HolidayStatus?
        let to: HolidayStatus
        /// The transition's note: the reason, for a rejection.
        let note: String
    }

    struct NoticeBody: Encodable {
        let id: Int64
        let kind: NoticeKind
        let title: String
        let body: String
        let pinned: Bool
        /// The last day a company notice is shown; null: until deleted (always null for personal notices).
        @Nullable var expiresOn: String?
        let author: String
        let createdAt: String
        let updatedAt: String
        /// Personal notices: whether the employee has read it; null for company notices.
        @Nullable var read: Bool?
        /// Personal notices: the request and the move they report; null for company notices.
        @Nullable var request: NoticeRequest?

        init(_ notice: Notice) {
            id = notice.id
            kind = notice.kind
            title = notice.title
            body = notice.body
            pinned = notice.pinned
            expiresOn = notice.expiresOn?.description
            author = notice.author
            createdAt = Timestamp.format(notice.createdAt)
            updatedAt = Timestamp.format(notice.updatedAt)
            read = notice.kind == .personal ? notice.readAt != nil : nil
            request = notice.transition.map {
                NoticeRequest(
                    id: $0.requestID, startDate: $0.startDate.description, endDate: $0.endDate.description, from: $0.from,
                    to: $0.to, note: $0.note)
            }
        }
    }

    struct NoticeList: Encodable {
        let items: [NoticeBody]
        let total: Int
        /// The caller's personal notices not yet read.
        let unread: Int
        /// An opaque cursor: pass as `after` to read the next page; null on the last page.
        @Nullable var nextAfter: String?
    }
}
