import Foundation
import Hummingbird
import SGCore

extension DTO {
    struct EmployeeRef: JSONBody {
        let employee: Employee

        init(_ employee: Employee) { self.employee = employee }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("id"); json.value(employee.id)
                json.key("name"); json.value(employee.name)
                json.key("surname"); json.value(employee.surname)
                json.key("username"); json.value(employee.username)
            }
        }
    }

    struct EmployeeBody: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String
        let email: String
        let isAdmin: Bool
        let isActive: Bool

        init(_ employee: Employee) {
            id = employee.id
            username = employee.username
            name = employee.name
            surname = employee.surname
            email = employee.email
            isAdmin = employee.isAdmin
            isActive = employee.isActive
        }
    }

    /// What every password-reset request gets back.
    struct ResetRequested: Encodable {
        let message: String
    }

    struct Token: Encodable {
        let token: String
        let tokenType = "Bearer"
        let expiresAt: String
        let employee: EmployeeBody

        init(_ issued: IssuedToken) {
            token = issued.token
            expiresAt = Timestamp.format(issued.expiresAt)
            employee = EmployeeBody(issued.employee)
        }
    }
}
