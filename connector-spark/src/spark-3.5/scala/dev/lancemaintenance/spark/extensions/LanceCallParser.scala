package dev.lancemaintenance.spark.extensions

import org.apache.spark.sql.catalyst.{FunctionIdentifier, TableIdentifier}
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.{DataType, StructType}

/**
 * Spark's parser, plus `CALL lance.<procedure>(...)`: the statement is split by [[CallStatement]],
 * each argument's value is read by the wrapped parser as an expression, and the plan is a
 * [[LanceCallCommand]]. Every other statement is the wrapped parser's.
 */
class LanceCallParser(delegate: ParserInterface) extends ParserInterface {
  override def parsePlan(sqlText: String): LogicalPlan = {
    val call = CallStatement.parse(sqlText)
    if (!call.isPresent) {
      delegate.parsePlan(sqlText)
    } else {
      val statement = call.get
      val arguments = (0 until statement.arguments.size).map { i =>
        val argument = statement.arguments.get(i)
        LanceCallCommand.Argument(
          if (argument.name.isPresent) Some(argument.name.get) else None,
          delegate.parseExpression(argument.valueSql))
      }
      val name = (0 until statement.name.size).map(i => statement.name.get(i))
      LanceCallCommand(name, arguments)
    }
  }

  override def parseExpression(sqlText: String): Expression = delegate.parseExpression(sqlText)

  override def parseTableIdentifier(sqlText: String): TableIdentifier = delegate.parseTableIdentifier(sqlText)

  override def parseFunctionIdentifier(sqlText: String): FunctionIdentifier =
    delegate.parseFunctionIdentifier(sqlText)

  override def parseMultipartIdentifier(sqlText: String): Seq[String] = delegate.parseMultipartIdentifier(sqlText)

  override def parseQuery(sqlText: String): LogicalPlan = delegate.parseQuery(sqlText)

  override def parseTableSchema(sqlText: String): StructType = delegate.parseTableSchema(sqlText)

  override def parseDataType(sqlText: String): DataType = delegate.parseDataType(sqlText)
}
