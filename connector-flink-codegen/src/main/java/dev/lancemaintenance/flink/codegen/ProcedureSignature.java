package dev.lancemaintenance.flink.codegen;

import dev.lancemaintenance.MaintenanceOption;
import java.util.List;

/**
 * The arguments of one Flink procedure class, in order: its own (the table or the root first, then
 * such as a pattern, a tag), then the options of a catalogue.
 *
 * @param procedureClass the hand-written class, which extends the generated signature and holds
 *     what the procedure does ({@code FlinkCleanupProcedure})
 * @param procedures the SQL names the class serves ({@code cleanup}; {@code create_tag} and {@code
 *     move_tag}), for the generated Javadoc and the errors
 * @param arguments the procedure's own arguments, the first one required
 * @param catalogue where {@code options} come from, as a Javadoc reference ({@code
 *     dev.lancemaintenance.cleanup.CleanupOption#CATALOGUE})
 * @param options the catalogue's options, after the own arguments, in the catalogue's order
 * @param resultRow the constant of {@code ResultRows} that types the procedure's rows
 */
record ProcedureSignature(
    String procedureClass,
    List<String> procedures,
    List<Argument> arguments,
    String catalogue,
    List<? extends MaintenanceOption> options,
    String resultRow) {

  /** One of the procedure's own arguments: a name and how it is written (STRING or LONG). */
  record Argument(String name, MaintenanceOption.Type type) {}

  ProcedureSignature {
    procedures = List.copyOf(procedures);
    arguments = List.copyOf(arguments);
    options = List.copyOf(options);
  }

  /** A procedure whose arguments are its own only. */
  static ProcedureSignature own(
      String procedureClass, List<String> procedures, List<Argument> arguments, String resultRow) {
    return new ProcedureSignature(procedureClass, procedures, arguments, null, List.of(), resultRow);
  }

  /** The generated class: the procedure class's name with {@code Signature} for {@code Procedure}. */
  String signatureClass() {
    return procedureClass.replaceFirst("Procedure$", "") + "Signature";
  }

  static Argument string(String name) {
    return new Argument(name, MaintenanceOption.Type.STRING);
  }

  static Argument bigint(String name) {
    return new Argument(name, MaintenanceOption.Type.LONG);
  }
}
