import SGAdmin

await SGAdmin.run(CommandLine.arguments.dropFirst().map { $0 })
