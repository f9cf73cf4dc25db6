//! Shards: which jobs of a job file one runner of a cluster takes.

use std::fmt;

use crate::jobs::Job;
use crate::{Error, Result};

/// Shard `index` of `count` (0-based), written `I/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 0 to count - 1.
    pub index: usize,
    /// How many shards the job list is dealt into.
    pub count: usize,
}

impl Shard {
    /// The whole job list.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with 0 <= I < N.
    pub fn parse(text: &str) -> Result<Shard> {
        let bad = || {
            Error::Invalid(format!(
                "--shard {text:?}: expected I/N with 0 <= I < N, such as 0/4"
            ))
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().ok().ok_or_else(bad)?;
        let count: usize = n.trim().parse().ok().ok_or_else(bad)?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard of a Slurm job-array task: `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`
    /// (arrays may start at 1) out of `SLURM_ARRAY_TASK_COUNT`. `None` outside an array.
    pub fn from_slurm(var: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>> {
        let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID"), var("SLURM_ARRAY_TASK_COUNT"))
        else {
            return Ok(None);
        };
        let num = |name: &str, v: &str| -> Result<usize> {
            v.trim()
                .parse()
                .map_err(|e| Error::Invalid(format!("{name}={v:?} is not a number: {e}")))
        };
        let id = num("SLURM_ARRAY_TASK_ID", &id)?;
        let count = num("SLURM_ARRAY_TASK_COUNT", &count)?;
        let min = match var("SLURM_ARRAY_TASK_MIN") {
            Some(m) => num("SLURM_ARRAY_TASK_MIN", &m)?,
            None => 0,
        };
        match id.checked_sub(min) {
            Some(index) if index < count => Ok(Some(Shard { index, count })),
            _ => bail!(
                Invalid,
                "SLURM_ARRAY_TASK_ID={id} is outside the array of {count} tasks from {min}; use \
                 a contiguous array such as --array=0-{}",
                count.saturating_sub(1)
            ),
        }
    }

    /// The jobs of this shard, in job-file order.
    ///
    /// Jobs are dealt by longest processing time first: sorted by estimated cost (ties by
    /// name), each goes to the shard with the least work so far (ties to the lowest index).
    /// Only the job list decides, so every machine computes the same assignment.
    #[must_use]
    pub fn select<'a>(&self, jobs: &'a [Job]) -> Vec<&'a Job> {
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by(|&a, &b| {
            jobs[b]
                .cost()
                .total_cmp(&jobs[a].cost())
                .then_with(|| jobs[a].name.cmp(&jobs[b].name))
        });
        let mut load = vec![0.0f64; self.count];
        let mut mine = vec![false; jobs.len()];
        for i in order {
            let bin = (0..self.count)
                .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
                .unwrap_or(0);
            load[bin] += jobs[i].cost();
            mine[i] = bin == self.index;
        }
        jobs.iter()
            .zip(mine)
            .filter(|(_, m)| *m)
            .map(|(j, _)| j)
            .collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_slurm() {
        assert_eq!(Shard::parse("2/5").unwrap(), Shard { index: 2, count: 5 });
        for bad in ["5/5", "1", "a/2", "0/0", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Shard::from_slurm(env(&[])).unwrap(), None);
        let s = Shard::from_slurm(env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]));
        assert_eq!(s.unwrap(), Some(Shard { index: 2, count: 3 }));
        assert!(Shard::from_slurm(env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "3")
        ]))
        .is_err());
    }

    #[test]
    fn every_job_in_exactly_one_shard_and_balanced() {
        let mut text = String::new();
        for i in 0..10 {
            text.push_str(&format!(
                "[[job]]\nname = \"g{i}\"\nkind = \"grundy-octal\"\ngame = \"0.77\"\nmax = {}\n",
                1000 * (i + 1)
            ));
        }
        let jobs = crate::jobs::parse(&text).unwrap();
        let mut seen = Vec::new();
        let mut loads = Vec::new();
        for index in 0..3 {
            let part = Shard { index, count: 3 }.select(&jobs);
            loads.push(part.iter().map(|j| j.cost()).sum::<f64>());
            seen.extend(part.iter().map(|j| j.name.clone()));
        }
        seen.sort();
        let mut all: Vec<_> = jobs.iter().map(|j| j.name.clone()).collect();
        all.sort();
        assert_eq!(seen, all);
        let (lo, hi) = loads
            .iter()
            .fold((f64::MAX, 0f64), |(l, h), &x| (l.min(x), h.max(x)));
        assert!(hi - lo <= 0.012, "{loads:?}");
    }
}
