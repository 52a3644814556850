import ArgumentParser
import Foundation
import SGCore
import SGSettings

struct HolidaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holidays", abstract: "Manage the company's public holidays and their calendars (per office or region).",
        subcommands: [Add.self, Remove.self, List.self, Calendar.self])

    struct Add: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a public holiday. Requests already made keep the working days counted when they were made.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The date, YYYY-MM-DD.") var date: String
        @Argument(help: "Its name.") var name: String
        @Option(help: "The holiday calendar (id or name); default: the first.") var calendar: String?

        func run(_ context: AdminContext) async throws {
            let day = try CalendarDate.parse(date, field: "date")
            let services = context.services
            let target = try await services.company.holidayCalendar(calendar ?? String(HolidayCalendar.defaultID))
            try await services.company.addPublicHoliday(
                PublicHoliday(date: day, name: name), calendarID: target.id, by: try await context.actor())
            printOut("\(day) is now a public holiday in \(target.name): \(name).\n")
        }
    }

    struct Remove: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a public holiday. Requests already made keep the working days counted when they were made.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The date, YYYY-MM-DD.") var date: String
        @Option(help: "The holiday calendar (id or name); default: the first.") var calendar: String?

        func run(_ context: AdminContext) async throws {
            let day = try CalendarDate.parse(date, field: "date")
            let services = context.services
            let target = try await services.company.holidayCalendar(calendar ?? String(HolidayCalendar.defaultID))
            let removed = try await services.company.removePublicHoliday(
                date: day, calendarID: target.id, by: try await context.actor())
            printOut("\(day) (\(removed.name)) is no longer a public holiday in \(target.name).\n")
        }
    }

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List public holidays.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this year.") var year: Int?
        @Option(help: "The holiday calendar (id or name); default: the first.") var calendar: String?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            if let year { try HolidayService.checkYear(year) }
            let services = context.services
            let target = try await services.company.holidayCalendar(calendar ?? String(HolidayCalendar.defaultID))
            let holidays = try await services.company.publicHolidays(year: year, calendarID: target.id)
            Output(columns: ["date", "name"], rows: holidays.map { [.text($0.date.description), .text($0.name)] }).print(format)
        }
    }

    struct Calendar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "Manage holiday calendars; `sgadmin user holiday-calendar` says who belongs to which.",
            subcommands: [CalendarList.self, CalendarAdd.self, CalendarRename.self, CalendarRemove.self])
    }

    struct CalendarList: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List holiday calendars.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let calendars = try await context.services.company.holidayCalendars()
            Output(
                columns: ["id", "name", "employees"],
                rows: calendars.map { [.number(Int($0.id)), .text($0.name), .number($0.employeeCount)] }
            ).print(format)
        }
    }

    struct CalendarAdd: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an empty holiday calendar.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its name.") var name: String

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let created = try await services.company.createHolidayCalendar(name: name, by: try await context.actor())
            printOut("Holiday calendar \(created.id) (\(created.name)) added.\n")
        }
    }

    struct CalendarRename: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a holiday calendar.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The calendar (id or name).") var calendar: String
        @Argument(help: "Its new name.") var name: String

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let target = try await services.company.holidayCalendar(calendar)
            let renamed = try await services.company.renameHolidayCalendar(id: target.id, to: name, by: try await context.actor())
            printOut("Holiday calendar \(renamed.id) is now \(renamed.name).\n")
        }
    }

    struct CalendarRemove: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a holiday calendar no employee belongs to, with its public holidays.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The calendar (id or name).") var calendar: String

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let target = try await services.company.holidayCalendar(calendar)
            try await services.company.deleteHolidayCalendar(id: target.id, by: try await context.actor())
            printOut("Holiday calendar \(target.id) (\(target.name)) removed.\n")
        }
    }
}
