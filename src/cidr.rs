//! Address ranges in CIDR notation (`10.0.0.0/8`, `::1/128`, or a bare address),
//! for `QUIRE_TRUSTED_PROXIES`. Imports nothing from quire.

use std::net::IpAddr;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is the IPv4 address.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let bad = || format!("{s:?} is not an address or a range like 10.0.0.0/8 or fd00::/8");
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p.parse::<u8>().map_err(|_| bad())?)),
            None => (s, None),
        };
        let net = canonical(addr.parse::<IpAddr>().map_err(|_| bad())?);
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        if prefix > max {
            return Err(bad());
        }
        Ok(Self { net, prefix })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.net, self.prefix)
    }
}

/// A comma-separated list of ranges; empty means none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CidrList(pub Vec<Cidr>);

impl CidrList {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|c| c.contains(ip))
    }
}

impl FromStr for CidrList {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        s.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(Cidr::from_str)
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }
}

impl std::fmt::Display for CidrList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(Cidr::to_string).collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_contain_their_addresses_only() {
        let list: CidrList = "10.0.0.0/8, 127.0.0.1, fd00::/8".parse().unwrap();
        assert!(list.contains(ip("10.200.1.2")));
        assert!(list.contains(ip("127.0.0.1")));
        assert!(list.contains(ip("::ffff:127.0.0.1")));
        assert!(list.contains(ip("fd12::1")));
        assert!(!list.contains(ip("127.0.0.2")));
        assert!(!list.contains(ip("11.0.0.1")));
        assert!(!list.contains(ip("fe80::1")));
        let all: CidrList = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")));
        assert_eq!("".parse::<CidrList>().unwrap(), CidrList::default());
    }

    #[test]
    fn nonsense_is_refused_with_what_was_wrong() {
        for bad in [
            "10.0.0.0/33",
            "example.org",
            "10.0.0/8",
            "::1/129",
            "1.2.3.4/x",
        ] {
            let err = bad.parse::<CidrList>().unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }
}
