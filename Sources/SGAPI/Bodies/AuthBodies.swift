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

    struct EmployeeBody: JSONBody {
        let employee: Employee

        init(_ employee: Employee) { self.employee = employee }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("email"); json.value(employee.email)
                json.key("id"); json.value(employee.id)
                json.key("isActive"); json.value(employee.isActive)
                json.key("isAdmin"); json.value(employee.isAdmin)
                json.key("name"); json.value(employee.name)
                json.key("surname"); json.value(employee.surname)
                json.key("username"); json.value(employee.username)
            }
        }
    }

    struct Token: JSONBody {
        let token: String
        let expiresAt: Date
        let employee: Employee

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("employee"); json.value(EmployeeBody(employee))
                json.key("expiresAt"); json.value(expiresAt)
                json.key("token"); json.value(token)
                json.key("tokenType"); json.value("Bearer")
            }
        }
    }
}
