//! Algorithms from outside the built-in set, by name: the registry behind
//! `protocol = "NAME"` for a user's congestion control (docs/your-own-algorithm.md).
//!
//! A Rust crate that depends on ccsim's crates registers a [`CcEntry`] under a name with
//! [`register_cc`] before it parses a scenario; the Python module installs a [`CcResolver`]
//! ([`set_cc_resolver`]) that turns a `"module:Class"` name, or a name Python registered, into
//! an entry. A flow's `protocol` is resolved when the spec is parsed, so a name that is not
//! known, or a module that does not import, is a spec error at `flows[i].protocol`.
//!
//! CHOICE: a name resolves once per process: its entry (and the Python class behind it) is
//! kept, and the name is interned for the process's life (one string per distinct name, so
//! memory grows with the names used, not with the flows). Registering a name again replaces
//! its entry for the specs parsed after.
//! CHOICE: a custom algorithm recovers from loss with one of the built-in recoveries
//! ([`LossRecovery`]), SACK's unless its entry says otherwise, under ns-3's rules unless the
//! flow's `recovery` says otherwise: an algorithm decides the window, the sender the rest, as
//! in Linux's `tcp_congestion_ops`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use ccsim_engine::QueueDiscipline;
use ccsim_protocols::tcp::cc::{CongestionControl, CustomCc};
use ccsim_protocols::LossRecovery;

/// The options of a flow's `cc = { ... }` table, as JSON values.
pub type CcOptions = BTreeMap<String, serde_json::Value>;

/// What a factory is told when a flow is built.
#[derive(Clone, Copy, Debug)]
pub struct CcArgs<'a> {
    /// The flow's name.
    pub flow: &'a str,
    /// The flow's `cc` table (empty without one).
    pub options: &'a CcOptions,
    /// The flow's maximum segment size, bytes.
    pub mss: u64,
}

/// Builds one flow's algorithm; an `Err` is a message naming what was wrong.
pub type CcFactory =
    dyn Fn(&CcArgs<'_>) -> Result<Box<dyn CongestionControl + Send>, String> + Send + Sync;

/// Checks a flow's `cc` table before anything is built; an `Err` names the key.
pub type CcCheck = dyn Fn(&CcOptions) -> Result<(), String> + Send + Sync;

/// A registered algorithm: how to build it and what the sender must know of it.
#[derive(Clone)]
pub struct CcEntry {
    /// The loss recovery it runs with.
    pub recovery: LossRecovery,
    /// It sets the window and the pacing rate itself (`cong_control`), as BBR.
    pub model_based: bool,
    /// It reads every ACK's deliveries (`on_delivery`).
    pub wants_deliveries: bool,
    /// Its receiver echoes CE per segment (DCTCP's feedback) instead of RFC 3168's ECE until
    /// CWR; such a flow is ECN-capable.
    pub precise_ecn: bool,
    /// Builds one flow's algorithm.
    pub factory: Arc<CcFactory>,
    /// Checks a flow's `cc` table; `None` accepts any table.
    pub check: Option<Arc<CcCheck>>,
}

impl std::fmt::Debug for CcEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CcEntry")
            .field("recovery", &self.recovery)
            .field("model_based", &self.model_based)
            .field("wants_deliveries", &self.wants_deliveries)
            .field("precise_ecn", &self.precise_ecn)
            .finish_non_exhaustive()
    }
}

impl CcEntry {
    /// An entry for a window algorithm with SACK recovery, built by `factory`.
    pub fn new(
        factory: impl Fn(&CcArgs<'_>) -> Result<Box<dyn CongestionControl + Send>, String>
            + Send
            + Sync
            + 'static,
    ) -> Self {
        CcEntry {
            recovery: LossRecovery::Sack,
            model_based: false,
            wants_deliveries: false,
            precise_ecn: false,
            factory: Arc::new(factory),
            check: None,
        }
    }
}

/// Resolves a name the registry does not hold (a `"module:Class"` path): `Ok(None)` when
/// it is not its to resolve.
pub type CcResolver = dyn Fn(&str) -> Result<Option<CcEntry>, String> + Send + Sync;

/// A resolved custom protocol: its interned name and the traits the spec checks read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CustomProtocol {
    /// The name as the scenario wrote it.
    pub name: &'static str,
    /// The loss recovery it runs with.
    pub recovery: LossRecovery,
    /// It sets the window itself.
    pub model_based: bool,
    /// Its receiver echoes CE per segment.
    pub precise_ecn: bool,
}

/// What a queue factory is told when a link direction is built.
#[derive(Clone, Copy, Debug)]
pub struct QueueArgs<'a> {
    /// The link direction, "a->b".
    pub link: &'a str,
    /// The queue table's keys beyond `kind`, `class` and `limit`.
    pub options: &'a CcOptions,
}

/// Builds one link direction's queue discipline.
pub type QueueFactory =
    dyn Fn(&QueueArgs<'_>) -> Result<Box<dyn QueueDiscipline + Send>, String> + Send + Sync;

/// A registered queue discipline.
#[derive(Clone)]
pub struct QueueEntry {
    /// Builds one link direction's discipline.
    pub factory: Arc<QueueFactory>,
    /// Checks the queue table's own keys; `None` accepts any.
    pub check: Option<Arc<CcCheck>>,
}

impl std::fmt::Debug for QueueEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueueEntry").finish_non_exhaustive()
    }
}

/// Resolves a queue class the registry does not hold (Python's `"module:Class"`).
pub type QueueResolver = dyn Fn(&str) -> Result<Option<QueueEntry>, String> + Send + Sync;

#[derive(Default)]
struct Registry {
    entries: HashMap<String, (CustomProtocol, CcEntry)>,
    resolver: Option<Arc<CcResolver>>,
    names: HashMap<String, &'static str>,
    queues: HashMap<String, QueueEntry>,
    queue_resolver: Option<Arc<QueueResolver>>,
}

fn registry() -> MutexGuard<'static, Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

impl Registry {
    fn intern(&mut self, name: &str) -> &'static str {
        if let Some(&s) = self.names.get(name) {
            return s;
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        self.names.insert(name.to_owned(), leaked);
        leaked
    }

    fn insert(&mut self, name: &str, entry: CcEntry) -> CustomProtocol {
        let protocol = CustomProtocol {
            name: self.intern(name),
            recovery: entry.recovery,
            model_based: entry.model_based,
            precise_ecn: entry.precise_ecn,
        };
        self.entries.insert(name.to_owned(), (protocol, entry));
        protocol
    }
}

/// A name a user's algorithm or queue may be registered under: letters, digits, `-`, `_`,
/// `.` (a `:` marks Python's `"module:Class"`).
///
/// # Errors
/// The name, and what a plain name is.
pub fn check_plain_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(())
    } else {
        Err(format!(
            "{name:?} is not a plain name (letters, digits, '-', '_', '.')"
        ))
    }
}

/// Register `entry` under `name` (checked by `spec::flows::register_cc`, which users call)
/// for the scenarios parsed after; a name registered before is replaced.
pub(crate) fn register(name: &str, entry: CcEntry) {
    registry().insert(name, entry);
}

/// Install the resolver of names the registry does not hold (the Python module's, for
/// `"module:Class"`); it replaces any installed before.
pub fn set_cc_resolver(resolver: Arc<CcResolver>) {
    registry().resolver = Some(resolver);
}

/// The custom protocol named `name`: registered, or resolved (and then kept); `Ok(None)`
/// when nothing knows the name.
///
/// # Errors
/// A message when the resolver failed (a module that does not import, a class that is not a
/// congestion control), or a `"module:Class"` name has no resolver (outside Python).
pub fn resolve(name: &str) -> Result<Option<CustomProtocol>, String> {
    let resolver = {
        let reg = registry();
        if let Some((p, _)) = reg.entries.get(name) {
            return Ok(Some(*p));
        }
        reg.resolver.clone()
    };
    // The resolver runs without the lock: it may import Python code that registers names.
    let found = match &resolver {
        Some(r) => r(name)?,
        None => None,
    };
    match found {
        Some(entry) => Ok(Some(registry().insert(name, entry))),
        None if name.contains(':') => Err(format!(
            "{name:?} names a Python class (\"module:Class\"); Python algorithms run through the ccsim Python module (ccsim run, ccsim.run)"
        )),
        None => Ok(None),
    }
}

fn entry_of(p: CustomProtocol) -> Result<CcEntry, String> {
    registry()
        .entries
        .get(p.name)
        .map(|(_, e)| e.clone())
        .ok_or_else(|| format!("the algorithm {:?} is no longer registered", p.name))
}

/// Check a flow's `cc` table against its algorithm's entry.
///
/// # Errors
/// The entry's message.
pub fn check_options(p: CustomProtocol, options: &CcOptions) -> Result<(), String> {
    match entry_of(p)?.check {
        Some(check) => check(options),
        None => Ok(()),
    }
}

/// Build one flow's algorithm.
///
/// # Errors
/// The factory's message.
pub fn build(p: CustomProtocol, args: &CcArgs<'_>) -> Result<CustomCc, String> {
    let entry = entry_of(p)?;
    let inner = (entry.factory)(args)?;
    Ok(CustomCc::new(
        p.name,
        entry.model_based,
        entry.wants_deliveries,
        inner,
    ))
}

/// Register a queue discipline as `queue = { kind = "custom", class = name, ... }` for the
/// scenarios parsed after; a name registered before is replaced.
///
/// # Errors
/// A name that is not a plain word (letters, digits, `-`, `_`, `.`).
pub fn register_queue(name: &str, entry: QueueEntry) -> Result<(), String> {
    check_plain_name(name)?;
    registry().queues.insert(name.to_owned(), entry);
    Ok(())
}

/// Install the resolver of queue classes the registry does not hold.
pub fn set_queue_resolver(resolver: Arc<QueueResolver>) {
    registry().queue_resolver = Some(resolver);
}

/// The queue discipline named `class`: registered, or resolved (and then kept).
///
/// # Errors
/// A message naming what is wrong: an unknown name, a module that does not import.
pub fn resolve_queue(class: &str) -> Result<QueueEntry, String> {
    let resolver = {
        let reg = registry();
        if let Some(e) = reg.queues.get(class) {
            return Ok(e.clone());
        }
        reg.queue_resolver.clone()
    };
    let found = match &resolver {
        Some(r) => r(class)?,
        None => None,
    };
    match found {
        Some(entry) => {
            registry().queues.insert(class.to_owned(), entry.clone());
            Ok(entry)
        }
        None if class.contains(':') => Err(format!(
            "{class:?} names a Python class (\"module:Class\"); Python queues run through the ccsim Python module (ccsim run, ccsim.run)"
        )),
        None => Err(format!(
            "unknown queue discipline {class:?}: not registered (a Python class is named \"module:Class\")"
        )),
    }
}
