//! `PortSpec`: the short port syntax (`[ip:][published:]target[/proto]`, ranges) as compose-go expands it into long-syntax ports.

use super::PortSpecError;

/// One long-syntax port from a short spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortSpec {
    /// `host_ip`, empty when not given.
    pub host_ip: String,
    /// `target`, the container port.
    pub target: u64,
    /// `published`, empty when not given; a range (`8000-8001`) when one
    /// container port takes a host range.
    pub published: String,
    /// `protocol`, lower case.
    pub protocol: String,
}

/// Expand a short port spec into its ports, in compose-go's order (by
/// `port/proto` text, as Go sorts the keys of docker's port map).
pub fn parse_ports(raw: &str) -> Result<Vec<PortSpec>, PortSpecError> {
    let parts: Vec<&str> = raw.split(':').collect();
    let n = parts.len();
    let container = parts.last().copied().unwrap_or_default();
    let (ip, host) = match n {
        1 => (String::new(), ""),
        2 => (String::new(), parts.first().copied().unwrap_or_default()),
        3 => (
            parts.first().copied().unwrap_or_default().to_string(),
            parts.get(1).copied().unwrap_or_default(),
        ),
        _ => (
            parts.get(..n - 2).map(|p| p.join(":")).unwrap_or_default(),
            parts.get(n - 2).copied().unwrap_or_default(),
        ),
    };
    let (proto, container) = split_proto(container);
    let ip = match ip.strip_prefix('[') {
        Some(rest) => match rest.strip_suffix(']') {
            Some(inner) => inner.to_string(),
            None => return Err(PortSpecError::UnclosedBracket(ip)),
        },
        None => ip,
    };
    if !ip.is_empty() && ip.parse::<std::net::IpAddr>().is_err() {
        return Err(PortSpecError::BadIp(ip));
    }
    if container.is_empty() {
        return Err(PortSpecError::NoPort(raw.to_owned()));
    }
    let (start, end) = port_range(container)?;
    let (hstart, hend) = if host.is_empty() {
        (0, 0)
    } else {
        port_range(host)?
    };
    if !host.is_empty() && end - start != hend.wrapping_sub(hstart) && end != start {
        return Err(PortSpecError::RangeMismatch {
            container: container.to_owned(),
            host: host.to_owned(),
        });
    }
    let proto = proto.to_ascii_lowercase();
    if !matches!(proto.as_str(), "tcp" | "udp" | "sctp") {
        return Err(PortSpecError::BadProto(proto));
    }
    let mut out = Vec::new();
    for i in 0..=(end - start) {
        let mut published = if host.is_empty() {
            String::new()
        } else {
            (hstart + i).to_string()
        };
        if start == end && hstart != hend {
            published = format!("{published}-{hend}");
        }
        out.push(PortSpec {
            host_ip: ip.clone(),
            target: start + i,
            published,
            protocol: proto.clone(),
        });
    }
    out.sort_by_key(|p| format!("{}/{}", p.target, p.protocol));
    Ok(out)
}

fn split_proto(raw: &str) -> (&str, &str) {
    let mut parts = raw.split('/');
    let port = parts.next().unwrap_or_default();
    match parts.next() {
        _ if raw.is_empty() || port.is_empty() => ("", ""),
        None | Some("") => ("tcp", port),
        Some(proto) => (proto, port),
    }
}

fn port_range(s: &str) -> Result<(u64, u64), PortSpecError> {
    let bad = || PortSpecError::BadRange(s.to_owned());
    let num = |t: &str| t.parse::<u16>().map(u64::from).map_err(|_| bad());
    match s.split_once('-') {
        None => {
            let p = num(s)?;
            Ok((p, p))
        }
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b)?);
            if b < a {
                return Err(bad());
            }
            Ok((a, b))
        }
    }
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn short_ports_expand_like_compose() {
        let p = parse_ports("127.0.0.1:8000-8001:90-91/UDP").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].published, "8001");
        assert_eq!(p[1].protocol, "udp");
        let p = parse_ports("8000-8001:90").unwrap();
        assert_eq!(p[0].published, "8000-8001");
        let p = parse_ports("[::1]:83:83").unwrap();
        assert_eq!(p[0].host_ip, "::1");
        assert!(parse_ports("1-2:3-5").is_err());
    }
}
