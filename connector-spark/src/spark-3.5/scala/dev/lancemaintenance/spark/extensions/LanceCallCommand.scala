package dev.lancemaintenance.spark.extensions

import dev.lancemaintenance.spark.procedures.{CallArguments, LanceProcedure, LanceProcedures}
import dev.lancemaintenance.spark.procedures.LanceProcedure.BoundCall
import java.time.Clock
import java.util.{Optional, ArrayList => JArrayList}
import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.catalyst.CatalystTypeConverters
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, AttributeReference, Cast, Expression, GenericInternalRow, Literal}
import org.apache.spark.sql.catalyst.plans.logical.{OneRowRelation, Project}
import org.apache.spark.sql.execution.command.LeafRunnableCommand
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}

/**
 * `CALL lance.<procedure>(...)` on Spark 3.5: binds the arguments with [[CallArguments]] (the rules
 * of Spark 4's native procedures), then runs the same [[LanceProcedure]] the Spark 4 procedures run.
 * Arguments are constant expressions (literals, `TIMESTAMP '...'`, `map(...)`), evaluated on the
 * driver; a value that does not convert to its parameter's type is an error naming the parameter.
 * The statement runs eagerly, as a command, when `spark.sql` is called.
 */
case class LanceCallCommand(name: Seq[String], arguments: Seq[LanceCallCommand.Argument]) extends LeafRunnableCommand {
  import LanceCallCommand._

  /** The bound call: evaluated once per plan node, when Spark first asks for the output. */
  @transient private lazy val bound: (LanceProcedure, BoundCall) = bind(SparkSession.active)

  override lazy val output: Seq[Attribute] = toAttributes(bound._1.schema(bound._2))

  override def run(spark: SparkSession): Seq[Row] = {
    val (procedure, call) = bound
    val result = procedure.call(call)
    val toRow = CatalystTypeConverters.createToScalaConverter(result.schema)
    result.rows.toSeq.map(row => toRow(row).asInstanceOf[Row])
  }

  override def simpleString(maxFields: Int): String =
    s"LanceCall ${name.mkString(".")} (${arguments.size} arguments)"

  private def bind(spark: SparkSession): (LanceProcedure, BoundCall) = {
    val catalog = name.head
    val namespace = name.slice(1, name.size - 1).toArray
    val procedure = LanceProcedures.find(namespace, name.last, Clock.systemUTC())
      .orElseThrow(() => LanceProcedures.notFound(catalog, namespace, name.last))
    val values = evaluate(spark, procedure)
    val written = new JArrayList[CallArguments.Written]()
    arguments.zip(values).foreach { case (argument, (_, dataType)) =>
      written.add(new CallArguments.Written(Optional.ofNullable(argument.name.orNull), dataType))
    }
    val binding = CallArguments.bind(procedure, written)
    val parameters = binding.parameters
    val row = new GenericInternalRow(parameters.size)
    for (p <- 0 until parameters.size) {
      val parameter = parameters.get(p)
      val argument = binding.argumentOf()(p)
      val (value, dataType) =
        if (argument >= 0) values(argument) else constant(spark, procedure, spark.sessionState.sqlParser
          .parseExpression(parameter.defaultSql.get))
      row.update(p, convert(procedure, parameter.name, value, dataType, parameter.`type`))
    }
    (procedure, new BoundCall(parameters, binding.givenNames, row))
  }

  /** Each argument's value and type: resolved like a SELECT of constants, never reading a table. */
  private def evaluate(spark: SparkSession, procedure: LanceProcedure): Seq[(Any, DataType)] =
    arguments.map(argument => constant(spark, procedure, argument.value))

  private def constant(spark: SparkSession, procedure: LanceProcedure, expression: Expression): (Any, DataType) = {
    val analyzed = spark.sessionState.executePlan(Project(Seq(Alias(expression, "value")()), OneRowRelation())).analyzed
    val resolved = analyzed.asInstanceOf[Project].projectList.head.asInstanceOf[Alias].child
    if (!resolved.foldable) {
      throw new IllegalArgumentException(
        s"lance.${procedure.name}: argument ${expression.sql} is not a constant")
    }
    (resolved.eval(), resolved.dataType)
  }
}

object LanceCallCommand {
  /** An argument as parsed: `name => value` or a positional value. */
  case class Argument(name: Option[String], value: Expression)

  private def toAttributes(schema: StructType): Seq[Attribute] =
    schema.fields.toSeq.map(field => AttributeReference(field.name, field.dataType, field.nullable, field.metadata)())

  /** The value as the parameter's type; one that does not convert is an error, never a NULL. */
  private def convert(procedure: LanceProcedure, parameter: String, value: Any, from: DataType, to: DataType): Any = {
    if (value == null || from == to) {
      value
    } else {
      val cast = Cast(Literal(value, from), to, Some(SQLConf.get.sessionLocalTimeZone))
      val converted = cast.eval()
      if (converted == null) {
        throw new IllegalArgumentException(
          s"lance.${procedure.name}: argument '$parameter' must be ${to.simpleString}, not the ${from.simpleString} $value")
      }
      converted
    }
  }
}
