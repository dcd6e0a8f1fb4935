"""The REST API's /api/v1/endpoints/: a signed-in user lists, removes the key of, and deletes their own endpoints.

Only the owner's endpoints exist here: another user's endpoint answers 404, like one that does not
exist. Parsing and rendering only; the writes are ``benchmark.accounts`` services.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from benchmark.accounts.selectors import endpoints_of
from benchmark.accounts.services import EndpointInUse, endpoint_delete, endpoint_key_remove
from benchmark.endpoints.models import ModelEndpoint

from .params import Pagination
from .serializers import ErrorSerializer


class OwnEndpointSerializer(serializers.ModelSerializer):
    """One of your endpoints; the key itself is never returned, only whether one is stored."""

    has_api_key = serializers.SerializerMethodField()
    n_runs = serializers.IntegerField(read_only=True)

    class Meta:
        model = ModelEndpoint
        fields = [
            "id",
            "name",
            "model",
            "api_base",
            "params",
            "concurrency",
            "requests_per_minute",
            "has_api_key",
            "n_runs",
            "created_at",
        ]
        read_only_fields = fields

    def get_has_api_key(self, endpoint: ModelEndpoint) -> bool:
        return bool(endpoint.api_key_encrypted)


NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No endpoint of yours has this id")
NOT_SIGNED_IN = OpenApiResponse(ErrorSerializer, description="Not signed in")


@extend_schema_view(
    list=extend_schema(
        summary="Your model endpoints (not deleted), newest first",
        responses={200: OwnEndpointSerializer(many=True), 401: NOT_SIGNED_IN},
    ),
    retrieve=extend_schema(
        summary="One of your endpoints", responses={200: OwnEndpointSerializer, 401: NOT_SIGNED_IN, 404: NOT_FOUND}
    ),
    destroy=extend_schema(
        summary="Delete one of your endpoints (kept, without its key, for the runs that name it)",
        responses={
            204: OpenApiResponse(description="Deleted"),
            401: NOT_SIGNED_IN,
            404: NOT_FOUND,
            409: OpenApiResponse(ErrorSerializer, description="A run of it is queued or running"),
        },
    ),
)
class OwnEndpointViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet
):
    """Your model endpoints: see them, remove a stored API key, delete them."""

    serializer_class = OwnEndpointSerializer
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return ModelEndpoint.objects.none()
        return endpoints_of(user=self.request.user)

    def destroy(self, request, *args, **kwargs) -> Response:
        try:
            endpoint_delete(endpoint=self.get_object())
        except EndpointInUse as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Remove the stored API key of one of your endpoints",
        request=None,
        responses={
            204: OpenApiResponse(description="The key is gone (or there was none)"),
            401: NOT_SIGNED_IN,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["delete"], url_path="key")
    def key(self, request, pk=None) -> Response:
        endpoint_key_remove(endpoint=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
