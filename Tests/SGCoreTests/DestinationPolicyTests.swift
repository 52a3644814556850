import Foundation
import Testing
@testable import SGCore

/// Which addresses the server may connect to on someone's behalf, and the webhook addresses an admin may give.
@Suite struct DestinationPolicyTests {
    static func kind(_ address: String) -> String? {
        DestinationPolicy.internalKind(DestinationPolicy.bytes(of: address)!)
    }

    @Test func internalAddressesAreKnownWhateverTheirSpelling() {
        let internalAddresses = [
            "127.0.0.1", "127.1.2.3", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
            "100.64.0.1", "0.0.0.0", "224.0.0.1", "239.255.255.250", "255.255.255.255", "198.18.0.1", "192.0.2.1",
            "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "fec0::1", "2001:db8::1",
            // IPv4 inside IPv6: mapped, NAT64, 6to4, compatible.
            "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "::10.0.0.1",
        ]
        for address in internalAddresses { #expect(Self.kind(address) != nil, "\(address) is internal") }
        #expect(Self.kind("127.0.0.1") == "a loopback" && Self.kind("::1") == "a loopback" && Self.kind("::ffff:127.0.0.1") == "a loopback")
        #expect(Self.kind("169.254.169.254") == "a link-local (cloud metadata)")
        let publicAddresses = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2001:4860:4860::8888", "2a00:1450:4001::200e"]
        for address in publicAddresses { #expect(Self.kind(address) == nil, "\(address) is public") }
    }

    @Test func anAdminAllowsNetworksAddressesOrOneAddressAndPort() throws {
        let policy = try DestinationPolicy(parsing: " 10.0.0.0/8, 127.0.0.1:8443 ,[::1]:9000, fd00::/8 ,192.168.1.7")
        func allowed(_ address: String, _ port: Int) -> Bool { policy.refusal(address: DestinationPolicy.bytes(of: address)!, port: port) == nil }
        #expect(allowed("10.200.1.1", 443) && allowed("::ffff:10.9.9.9", 80))
        #expect(allowed("127.0.0.1", 8443) && !allowed("127.0.0.1", 8444) && !allowed("127.0.0.2", 8443))
        #expect(allowed("::1", 9000) && !allowed("::1", 9001))
        #expect(allowed("fd12::1", 443) && !allowed("fc00::1", 443))
        #expect(allowed("192.168.1.7", 1) && !allowed("192.168.1.8", 1))
        #expect(!allowed("169.254.169.254", 80) && allowed("8.8.8.8", 53))
        #expect(DestinationPolicy.publicOnly.refusal(address: DestinationPolicy.bytes(of: "127.0.0.1")!, port: 80) == "a loopback")
        for bad in ["10.0.0.0/33", "::/129", "localhost", "127.0.0.1:0", "127.0.0.1:70000", "10.0.0/8", "[::1]", "x/8"] {
            #expect(throws: DestinationPolicyError.self, "\(bad)") { try DestinationPolicy(parsing: bad) }
        }
        #expect(try DestinationPolicy(parsing: "").allowances.isEmpty)
    }

    @Test func aWebhookNamesNoInternalAddressAndNoLookAlikeOfTheLoopback() throws {
        func refused(_ url: String, insecure: Bool = false, _ policy: DestinationPolicy = .publicOnly) -> Bool {
            (try? WebhookRules.url(url, allowInsecure: insecure, destinations: policy)) == nil
        }
        // A name that starts like the loopback is a name: plain http to it is refused, https to it waits for the
        // sender's check of the address it resolves to.
        #expect(refused("http://127.attacker.example/hook"))
        #expect(!refused("https://127.attacker.example/hook"))
        for url in [
            "https://169.254.169.254/latest/meta-data/", "https://10.0.0.1/hook", "https://192.168.0.10/", "https://[::1]/",
            "https://[::ffff:169.254.169.254]/", "https://[fd00:ec2::254]/", "http://127.0.0.1:9000/hook", "https://0.0.0.0/",
        ] {
            #expect(refused(url), "\(url)")
        }
        #expect(!refused("https://hooks.example.com/x") && !refused("https://93.184.216.34/x"))
        let allowed = try DestinationPolicy(parsing: "10.0.0.0/8,127.0.0.1:9000")
        #expect(!refused("https://10.0.0.1/hook", allowed))
        #expect(!refused("http://127.0.0.1:9000/hook", allowed), "plain http to the allowed loopback receiver")
        #expect(refused("http://127.0.0.1:9001/hook", allowed))
        #expect(refused("http://10.0.0.1/hook", allowed), "plain http beyond this machine needs allowInsecure")
        #expect(!refused("http://10.0.0.1/hook", insecure: true, allowed))
        do {
            _ = try WebhookRules.url("https://169.254.169.254/", allowInsecure: false)
        } catch SGError.invalid(let field, let message) {
            #expect(field == "url" && message.contains("link-local") && message.contains("SG_ALLOWED_INTERNAL_ADDRESSES"), "\(message)")
        }
    }
}
