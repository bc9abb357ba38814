package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;

/**
 * What {@code lance.compact} and {@code lance.optimize} share: {@code table}, the compaction
 * options generated from {@link CompactionOption} in catalogue order, and {@code options} (the
 * SDK's storage options). All but {@code table} optional: an absent one keeps Lance's default.
 */
final class CompactionParameters {
  static final Parameter TABLE =
      Parameter.required(
          "table", DataTypes.StringType, "the table: a path or a URI the Lance SDK opens (file:, s3://, s3a://, ...)");
  static final Parameter OPTIONS =
      Parameter.optional(
          "options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "the Lance SDK's storage options (e.g. aws_region), not Hadoop keys");

  /** table, then the compaction options, then options: the signature of lance.compact. */
  static final List<Parameter> ALL = all();

  private CompactionParameters() {}

  private static List<Parameter> all() {
    List<Parameter> all = new ArrayList<>();
    all.add(TABLE);
    // No option of compaction is a cutoff: the cutoff type is never used.
    all.addAll(OptionParameters.parameters(CompactionOption.CATALOGUE.options(), DataTypes.StringType));
    all.add(OPTIONS);
    return List.copyOf(all);
  }

  /** The SDK storage options of the call. */
  static Map<String, String> storageOptions(ProcedureArgs args) {
    return args.stringMap(OPTIONS);
  }

  /** Sets every compaction option the call gives; a bad value fails naming its parameter. */
  static CompactAction applyTo(LanceProcedure.BoundCall call, CompactAction action) {
    return CompactionOption.applyTo(
        action, OptionCatalogue.only(CompactionOption.class, OptionParameters.given(call, CompactionOption.CATALOGUE)));
  }
}
