import Foundation
import SGCore

extension DTO {
    /// A notice. `expiresOn`: the last day a company notice is shown, null until deleted (always null for personal
    /// notices). `read`: personal notices only, whether the employee has read it. `request`: personal notices only,
    /// the request and the move they report, with the transition's note (the reason, for a rejection); its `from` is
    /// null when the notice reports a new request.
    struct NoticeBody: JSONBody {
        let notice: Notice

        init(_ notice: Notice) {
            self.notice = notice
        }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("author"); json.value(notice.author)
                json.key("body"); json.value(notice.body)
                json.key("createdAt"); json.value(notice.createdAt)
                json.key("expiresOn"); json.value(notice.expiresOn?.description)
                json.key("id"); json.value(notice.id)
                json.key("kind"); json.value(notice.kind.rawValue)
                json.key("pinned"); json.value(notice.pinned)
                json.key("read")
                if notice.kind == .personal { json.value(notice.readAt != nil) } else { json.null() }
                json.key("request")
                if let transition = notice.transition {
                    json.object { json in
                        json.key("endDate"); json.value(transition.endDate)
                        json.key("from"); json.value(transition.from?.rawValue)
                        json.key("id"); json.value(transition.requestID)
                        json.key("note"); json.value(transition.note)
                        json.key("startDate"); json.value(transition.startDate)
                        json.key("to"); json.value(transition.to.rawValue)
                    }
                } else {
                    json.null()
                }
                json.key("title"); json.value(notice.title)
                json.key("updatedAt"); json.value(notice.updatedAt)
            }
        }
    }

    /// `unread`: the caller's personal notices not yet read. `nextAfter`: an opaque cursor, passed as `after` to read
    /// the next page; null on the last page.
    struct NoticeList: JSONBody {
        let items: [NoticeBody]
        let total: Int
        let unread: Int
        let nextAfter: String?

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("items"); json.array(items) { json, item in json.value(item) }
                json.key("nextAfter"); json.value(nextAfter)
                json.key("total"); json.value(total)
                json.key("unread"); json.value(unread)
            }
        }
    }
}
