import Foundation
import Hummingbird
import SGCore

/// HR's reports of a year for admins, as `sgadmin export` writes them: CSV (the same bytes) or JSON, streamed.
struct ReportsController {
    let services: Services

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        for format in [ReportStream.Format.csv, .json] {
            let suffix = format == .csv ? ".csv" : ""

            /// One row per request touching the year.
            group.get("/reports/holidays\(suffix)") { request, context in
                let (year, actor) = try Self.check(request, context)
                let holidays = services.holidays
                return try await ReportStream.response(
                    format, columns: HolidayReportLayout.requestColumns, filename: "holidays-\(year)"
                ) { emit in
                    try await holidays.export(year: year, by: actor) { row in try emit(HolidayReportLayout.requestCells(row)) }
                }
            }

            /// One row per employee (inactive ones included) with the year's balance.
            group.get("/reports/balances\(suffix)") { request, context in
                let (year, actor) = try Self.check(request, context)
                let holidays = services.holidays
                return try await ReportStream.response(
                    format, columns: HolidayReportLayout.balanceColumns, filename: "balances-\(year)"
                ) { emit in
                    for (employee, balance) in try await holidays.balances(year: year, by: actor) {
                        try emit(HolidayReportLayout.balanceCells(employee, balance, year: year))
                    }
                }
            }
        }
    }

    /// An admin and a supported year, checked before the report starts.
    private static func check(_ request: Request, _ context: AppRequestContext) throws -> (Int, Actor) {
        let admin = try context.requireAdmin()
        guard let year = try request.integerQuery("year", in: HolidayService.supportedYears) else {
            throw SGError.invalid(field: "year", message: "name the year of the report")
        }
        try HolidayService.checkReport(year: year, by: admin.actor)
        return (year, admin.actor)
    }
}
