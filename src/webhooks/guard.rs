//! Where a webhook may post: never to this machine, a private or link-local
//! network, or a cloud's metadata address (server-side request forgery),
//! unless `QUIRE_WEBHOOK_ALLOW_NETWORKS` names that network. Checked at each
//! delivery, after the name is looked up; the post then goes to the very
//! address that was checked (a second lookup cannot move it), and redirects
//! are not followed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use crate::cidr::CidrList;

/// Why an address is refused, in a few words; none when it is public.
pub fn refused(ip: IpAddr) -> Option<&'static str> {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_unspecified() || a == 0 {
        Some("this host")
    } else if ip.is_link_local() {
        Some("link-local or metadata")
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Some("private")
    } else if ip.is_multicast() || ip.is_broadcast() || a >= 240 {
        Some("not a single host")
    } else {
        None
    }
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_unspecified() {
        Some("this host")
    } else if first & 0xffc0 == 0xfe80 {
        Some("link-local")
    } else if first & 0xfe00 == 0xfc00 {
        Some("private")
    } else if ip.is_multicast() {
        Some("not a single host")
    } else if let Some(v4) = ip.to_ipv4() {
        // IPv4-compatible and NAT64 forms carry an IPv4 address inside.
        refused_v4(v4)
    } else {
        None
    }
}

/// The first address `host` resolves to that may be posted to, or why none may.
pub async fn resolve(host: &str, port: u16, allowed: &CidrList) -> Result<SocketAddr, String> {
    let found: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| format!("{host} could not be looked up: {e}"))?
        .collect();
    if found.is_empty() {
        return Err(format!("{host} has no address"));
    }
    // Every address must pass: a name that also leads inside is refused
    // (which one a client would use is not ours to guess).
    for addr in &found {
        if let Some(why) = refused(addr.ip())
            && !allowed.contains(addr.ip())
        {
            return Err(format!(
                "refused: {host} leads to {} ({why}); allow that network with \
                 QUIRE_WEBHOOK_ALLOW_NETWORKS if it is meant",
                addr.ip()
            ));
        }
    }
    Ok(found[0])
}

#[cfg(test)]
mod tests {
    use super::refused;

    #[test]
    fn inside_addresses_are_refused_and_public_ones_pass() {
        for inside in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
        ] {
            assert!(refused(inside.parse().unwrap()).is_some(), "{inside}");
        }
        for public in ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"] {
            assert!(refused(public.parse().unwrap()).is_none(), "{public}");
        }
    }
}
