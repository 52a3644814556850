import Foundation
import SGCore

extension DTO {
    struct LeaveTypeBody: Encodable {
        let type: LeaveType

        init(_ type: LeaveType) { self.type = type }

        enum CodingKeys: String, CodingKey {
            case id, name, drawsOnAllowance, needsApproval, `private`, yearlyCap, retired
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type.id, forKey: .id)
            try container.encode(type.name, forKey: .name)
            try container.encode(type.drawsOnAllowance, forKey: .drawsOnAllowance)
            try container.encode(type.needsApproval, forKey: .needsApproval)
            try container.encode(type.isPrivate, forKey: .private)
            // Always present: null is "no cap".
            try container.encode(type.yearlyCap?.days, forKey: .yearlyCap)
            try container.encode(type.isRetired, forKey: .retired)
        }
    }
}
