package dev.lancemaintenance.spark.extensions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@code CALL lance.<procedure>(<arguments>)} statement split into its parts, for Spark 3.5 whose
 * parser has no {@code CALL}: the procedure's name parts and each argument's name (for {@code name
 * => value}) and the SQL text of its value, which Spark's own parser reads. Only statements that
 * call into the {@code lance} catalog are ours; anything else goes on to Spark's parser (or to
 * another extension's, such as Iceberg's, whose {@code CALL}s name its catalogs).
 */
record CallStatement(List<String> name, List<Argument> arguments) {
  static final String CATALOG = "lance";

  /** One argument as written: {@code name => value} or a positional value. */
  record Argument(Optional<String> name, String valueSql) {}

  /** The statement, when {@code sql} is a {@code CALL} into the {@code lance} catalog. */
  static Optional<CallStatement> parse(String sql) {
    Scanner scanner = new Scanner(sql);
    if (!scanner.keyword("call")) {
      return Optional.empty();
    }
    List<String> name = new ArrayList<>();
    name.add(scanner.identifier());
    if (!name.get(0).equalsIgnoreCase(CATALOG)) {
      return Optional.empty();
    }
    while (scanner.consume('.')) {
      name.add(scanner.identifier());
    }
    scanner.expect('(');
    List<Argument> arguments = new ArrayList<>();
    if (!scanner.consume(')')) {
      do {
        arguments.add(scanner.argument());
      } while (scanner.consume(','));
      scanner.expect(')');
    }
    scanner.consume(';');
    scanner.expectEnd();
    return Optional.of(new CallStatement(List.copyOf(name), List.copyOf(arguments)));
  }

  /** Reads the statement left to right, skipping whitespace and SQL comments between tokens. */
  private static final class Scanner {
    private final String sql;
    private int at;

    Scanner(String sql) {
      this.sql = sql;
    }

    boolean keyword(String word) {
      skipBlanks();
      int end = at + word.length();
      if (end <= sql.length() && sql.substring(at, end).equalsIgnoreCase(word)
          && (end == sql.length() || !isIdentifierPart(sql.charAt(end)))) {
        at = end;
        return true;
      }
      return false;
    }

    String identifier() {
      skipBlanks();
      if (at < sql.length() && sql.charAt(at) == '`') {
        StringBuilder name = new StringBuilder();
        at++;
        while (true) {
          if (at >= sql.length()) {
            throw error("an unterminated quoted name");
          }
          char c = sql.charAt(at++);
          if (c == '`') {
            if (at < sql.length() && sql.charAt(at) == '`') {
              name.append('`');
              at++;
              continue;
            }
            return name.toString();
          }
          name.append(c);
        }
      }
      int start = at;
      while (at < sql.length() && isIdentifierPart(sql.charAt(at))) {
        at++;
      }
      if (start == at) {
        throw error("a name");
      }
      return sql.substring(start, at);
    }

    /** {@code name => value} or {@code value}; the value runs to the next top-level comma or ')'. */
    Argument argument() {
      skipBlanks();
      int mark = at;
      Optional<String> name = Optional.empty();
      if (at < sql.length() && (isIdentifierPart(sql.charAt(at)) || sql.charAt(at) == '`')) {
        String candidate = identifier();
        skipBlanks();
        if (sql.startsWith("=>", at)) {
          at += 2;
          name = Optional.of(candidate);
        } else {
          at = mark;
        }
      }
      int start = at;
      int depth = 0;
      while (at < sql.length()) {
        char c = sql.charAt(at);
        if (c == '\'' || c == '"' || c == '`') {
          skipQuoted(c);
          continue;
        }
        if (sql.startsWith("--", at) || sql.startsWith("/*", at)) {
          skipBlanks();
          continue;
        }
        if (c == '(' || c == '[') {
          depth++;
        } else if (c == ')' || c == ']') {
          if (depth == 0) {
            break;
          }
          depth--;
        } else if (c == ',' && depth == 0) {
          break;
        }
        at++;
      }
      String value = sql.substring(start, at).trim();
      if (value.isEmpty()) {
        throw error("an argument value");
      }
      return new Argument(name, value);
    }

    boolean consume(char c) {
      skipBlanks();
      if (at < sql.length() && sql.charAt(at) == c) {
        at++;
        return true;
      }
      return false;
    }

    void expect(char c) {
      if (!consume(c)) {
        throw error("'" + c + "'");
      }
    }

    void expectEnd() {
      skipBlanks();
      if (at < sql.length()) {
        throw error("the end of the statement");
      }
    }

    private void skipQuoted(char quote) {
      at++;
      while (at < sql.length()) {
        char c = sql.charAt(at++);
        if (c == '\\' && quote != '`') {
          at++;
        } else if (c == quote) {
          return;
        }
      }
      throw error("the closing " + quote);
    }

    private void skipBlanks() {
      while (at < sql.length()) {
        if (Character.isWhitespace(sql.charAt(at))) {
          at++;
        } else if (sql.startsWith("--", at)) {
          int end = sql.indexOf('\n', at);
          at = end < 0 ? sql.length() : end + 1;
        } else if (sql.startsWith("/*", at)) {
          int end = sql.indexOf("*/", at + 2);
          if (end < 0) {
            throw error("the end of a comment");
          }
          at = end + 2;
        } else {
          return;
        }
      }
    }

    private static boolean isIdentifierPart(char c) {
      return Character.isLetterOrDigit(c) || c == '_';
    }

    private IllegalArgumentException error(String expected) {
      String near = sql.substring(Math.min(at, sql.length()), Math.min(at + 20, sql.length()));
      return new IllegalArgumentException(
          "Cannot parse CALL " + CATALOG + ".*: expected " + expected + " at position " + at
              + (near.isEmpty() ? " (end of statement)" : " near '" + near + "'"));
    }
  }
}
