package dev.lancemaintenance.storage;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Takes {@code Expect: 100-continue} off a request, so that its body goes with its headers: why,
 * and when s3a is given this interceptor, in {@link S3ExpectContinue}. It runs after the SDK's
 * own interceptors (s3a adds its audit interceptors to the client's), before signing.
 */
public final class RemoveExpectContinue implements ExecutionInterceptor {
  private static final String EXPECT = "Expect";

  /** s3a creates it by its class name, with no argument. */
  public RemoveExpectContinue() {}

  @Override
  public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
    SdkHttpRequest request = context.httpRequest();
    return request.firstMatchingHeader(EXPECT).isPresent() ? request.toBuilder().removeHeader(EXPECT).build() : request;
  }
}
