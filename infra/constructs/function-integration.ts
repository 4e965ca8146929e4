/**
 * A route's Lambda integration, with API Gateway's permission to invoke its function added once, by the
 * function (in the function's own stack), for the route's path — not once a route key in the API's stack,
 * as CDK's HttpLambdaIntegration adds them (a GET and its HEAD twin got two of one ARN). Each function
 * serves one route, so the permission is as narrow as CDK's: this API, any stage and method, the route's
 * path (the catch-all's: the whole API).
 */
import { Stack } from 'aws-cdk-lib';
import type { HttpRouteIntegrationBindOptions, HttpRouteIntegrationConfig } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { guardException } from '../guard.ts';

export class FunctionIntegration extends HttpLambdaIntegration {
  private allowed = false;

  constructor(
    id: string,
    private readonly fn: IFunction,
  ) {
    super(id, fn);
  }

  override bind(options: HttpRouteIntegrationBindOptions): HttpRouteIntegrationConfig {
    if (!this.allowed) {
      this.allowed = true;
      const { route } = options;
      this.fn.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: Stack.of(route).formatArn({
          service: 'execute-api',
          resource: route.httpApi.apiId,
          resourceName: `*/*${route.path ?? ''}`,
        }),
      });
      // The guard's rule cannot read the joined ARN as this API's (infra/guard.ts; the stack test checks each permission).
      guardException(this.fn.permissionsNode.findChild('ApiInvoke'), 'lambda_function_public_access_prohibited_check');
    }
    return super.bind(options);
  }

  /** The permission is bind's, once: none a route key. */
  protected override completeBind(): void {}
}
