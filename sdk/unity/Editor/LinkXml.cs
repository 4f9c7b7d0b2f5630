#if UNITY_5_3_OR_NEWER
using System.IO;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;
using UnityEditor.UnityLinker;

namespace Vrtc.Headset.Editor
{
    /// <summary>
    /// Hands the package's Runtime/link.xml to IL2CPP's linker: Unity reads link.xml files under
    /// Assets/ only, and a package added from git cannot put one there.
    /// </summary>
    internal sealed class LinkXml : IUnityLinkerProcessor
    {
        public int callbackOrder { get { return 0; } }

        public string GenerateAdditionalLinkXmlFile(BuildReport report, UnityLinkerBuildPipelineData data)
        {
            var package = UnityEditor.PackageManager.PackageInfo.FindForAssembly(typeof(HeadsetClient).Assembly);
            var folder = package != null ? package.resolvedPath : Path.GetFullPath("Packages/com.vrtc.headset");
            return Path.Combine(folder, "Runtime", "link.xml");
        }

        // Part of the interface in Unity 2021.3 (obsolete later): nothing to do before or after.
        public void OnBeforeRun(BuildReport report, UnityLinkerBuildPipelineData data) { }
        public void OnAfterRun(BuildReport report, UnityLinkerBuildPipelineData data) { }
    }
}
#endif
