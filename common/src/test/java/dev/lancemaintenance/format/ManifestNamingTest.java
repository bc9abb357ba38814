package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ManifestNamingTest {

  @Test
  void namesVersionOneInBothSchemes() {
    assertThat(ManifestNaming.V1.fileName(1)).isEqualTo("1.manifest");
    assertThat(ManifestNaming.V2.fileName(1)).isEqualTo("18446744073709551614.manifest");
  }

  @Test
  void padsV2NamesToTwentyDigits() {
    // u64::MAX - (u64::MAX - 7) = 7, which must still be written with 20 digits.
    assertThat(ManifestNaming.V2.fileName(-8L)).isEqualTo("00000000000000000007.manifest");
  }

  @Test
  void v2NamesListNewestFirst() {
    assertThat(ManifestNaming.V2.fileName(10)).isLessThan(ManifestNaming.V2.fileName(9));
  }

  @Test
  void detectsTheSchemeFromTheStemLength() {
    assertThat(ManifestNaming.of("18446744073709551614.manifest")).isEqualTo(ManifestNaming.V2);
    assertThat(ManifestNaming.of("12.manifest")).isEqualTo(ManifestNaming.V1);
  }

  @Test
  void parsesTheVersionBackFromEitherName() {
    for (long version : new long[] {0, 1, 42, 1L << 40}) {
      for (ManifestNaming naming : ManifestNaming.values()) {
        String name = naming.fileName(version);
        assertThat(ManifestNaming.of(name)).as(name).isEqualTo(naming);
        assertThat(naming.parseVersion(name)).as(name).hasValue(version);
      }
    }
  }

  @Test
  void refusesStemsThatAreNotUnsigned64BitNumbers() {
    assertThat(ManifestNaming.V1.parseVersion("abc.manifest")).isEmpty();
    assertThat(ManifestNaming.V1.parseVersion("-1.manifest")).isEmpty();
    assertThat(ManifestNaming.V1.parseVersion("+1.manifest")).isEmpty();
    assertThat(ManifestNaming.V1.parseVersion(".manifest")).isEmpty();
    assertThat(ManifestNaming.V2.parseVersion("99999999999999999999.manifest")).isEmpty();
  }
}
