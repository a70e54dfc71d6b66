import Foundation

exit(CertifyCommand.run(Array(CommandLine.arguments.dropFirst())))
