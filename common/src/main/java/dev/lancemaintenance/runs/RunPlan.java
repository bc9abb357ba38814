package dev.lancemaintenance.runs;

import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a run that deletes decided on, recorded after its decision and before its first delete, so
 * that a later run can tell whether the dead run's decision still stands ({@link #differenceFrom}):
 * the facts of its plan stage (latest version, the listed manifests' store identity, tags, fork
 * points, the resolved policy, where it listed from) and how many decide tasks recorded parts.
 *
 * @param facts the plan stage's facts by name, in the order written; compared whole
 * @param decideTasks the decide tasks whose parts ({@link RecordedFiles#decidePart}) hold the decision
 */
public record RunPlan(Map<String, String> facts, int decideTasks) implements Serializable {
  private static final String DECIDE_TASKS = "decide_tasks";
  private static final String RECORD = "record";

  public RunPlan {
    facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    if (facts.containsKey(DECIDE_TASKS) || facts.containsKey(RECORD)) {
      throw new IllegalArgumentException("a plan fact may not be named " + DECIDE_TASKS + " or " + RECORD);
    }
    if (decideTasks < 1) {
      throw new IllegalArgumentException("a plan has at least one decide task: " + decideTasks);
    }
  }

  /** The plan file's bytes ({@link RecordText}: a checksum and {@code end}, so a torn file never reads). */
  public byte[] encode() {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put(RECORD, "plan");
    fields.putAll(facts);
    fields.put(DECIDE_TASKS, Integer.toString(decideTasks));
    return RecordText.encode(fields);
  }

  /** The plan a file holds; {@link IllegalArgumentException} saying why not. */
  public static RunPlan decode(byte[] content) {
    Map<String, String> fields = new LinkedHashMap<>(RecordText.decode(content));
    RecordFields read = new RecordFields(fields, "plan");
    int tasks = Math.toIntExact(read.number(DECIDE_TASKS));
    fields.remove(RECORD);
    fields.remove(DECIDE_TASKS);
    return new RunPlan(fields, tasks);
  }

  /**
   * The first fact in which {@code current} differs from this plan, as {@code name recorded -> now};
   * empty when every fact is the same. Digests ({@code *_sha256}) are shortened: they only tell that
   * something changed.
   */
  public Optional<String> differenceFrom(RunPlan current) {
    Objects.requireNonNull(current, "current");
    for (String name : union(facts, current.facts)) {
      String recorded = facts.getOrDefault(name, "none");
      String now = current.facts.getOrDefault(name, "none");
      if (!recorded.equals(now)) {
        return Optional.of(name + " " + shortened(name, recorded) + " -> " + shortened(name, now));
      }
    }
    return Optional.empty();
  }

  /** The fact named {@code name}, empty when the plan does not hold it. */
  public Optional<String> fact(String name) {
    return Optional.ofNullable(facts.get(name));
  }

  /** This plan with the fact {@code name} set to {@code value} (added last, or replaced in place). */
  public RunPlan with(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(facts);
    more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new RunPlan(more, decideTasks);
  }

  /** This plan without the facts {@code names}: those a caller compares by a rule of its own. */
  public RunPlan without(Collection<String> names) {
    Map<String, String> fewer = new LinkedHashMap<>(facts);
    fewer.keySet().removeAll(names);
    return new RunPlan(fewer, decideTasks);
  }

  private static Iterable<String> union(Map<String, String> a, Map<String, String> b) {
    Set<String> names = new LinkedHashSet<>(a.keySet());
    names.addAll(b.keySet());
    return names;
  }

  private static String shortened(String name, String value) {
    return name.endsWith("_sha256") && value.length() > 12 ? value.substring(0, 12) : value;
  }
}
